import { type AggregateMemo, aggregateLimit, aggregateLimitOrigin } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { tooManyInstances } from './NumInstancesFilter.js';

const KEY = 'max_instances_per_host';

const TOO_MANY_INSTANCES = reject<AggregateMemo<number>>((host, _spec, memo, ctx) => {
  const max = aggregateLimit(host, memo, KEY, ctx.config.filter_scheduler.max_instances_per_host, 'int');
  return tooManyInstances(host, max, aggregateLimitOrigin(host, KEY, 'int', `[filter_scheduler] ${KEY}`));
});

/**
 * NumInstancesFilter with a per-aggregate limit: the smallest `max_instances_per_host` in the host's
 * aggregate metadata, else `[filter_scheduler] max_instances_per_host`. One value that is not an
 * integer makes the config value apply (Nova logs a warning and does the same).
 */
export const AggregateNumInstancesFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateNumInstancesFilter',
  prepare: () => new Map(),
  check: (host, _spec, memo, ctx) =>
    host.num_instances <
    aggregateLimit(host, memo, KEY, ctx.config.filter_scheduler.max_instances_per_host, 'int')
      ? PASS
      : TOO_MANY_INSTANCES,
});
