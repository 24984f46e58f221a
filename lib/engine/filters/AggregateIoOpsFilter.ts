import { type AggregateMemo, aggregateLimit, aggregateLimitOrigin } from '../aggregates.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { tooManyIoOps } from './IoOpsFilter.js';

const KEY = 'max_io_ops_per_host';

const TOO_MANY_IO_OPS = reject<AggregateMemo<number>>((host, _spec, memo, ctx) => {
  const fallback = ctx.config.filter_scheduler.max_io_ops_per_host;
  const max = aggregateLimit(host, memo, KEY, fallback, 'int');
  return tooManyIoOps(host, max, aggregateLimitOrigin(host, KEY, 'int', `[filter_scheduler] ${KEY}`));
});

/**
 * IoOpsFilter with a per-aggregate limit: the smallest `max_io_ops_per_host` in the host's
 * aggregate metadata, else `[filter_scheduler] max_io_ops_per_host`. One value that is not an
 * integer makes the config value apply (Nova logs a warning and does the same).
 */
export const AggregateIoOpsFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateIoOpsFilter',
  prepare: () => new Map(),
  check: (host, _spec, memo, ctx) =>
    host.num_io_ops < aggregateLimit(host, memo, KEY, ctx.config.filter_scheduler.max_io_ops_per_host, 'int')
      ? PASS
      : TOO_MANY_IO_OPS,
});
