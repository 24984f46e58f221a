import type { Aggregate, HostState } from '../../model/hostState.js';
import { aggregateNumber, aggregateValues, pyFloat, pyInt } from '../aggregates.js';
import { defineFilter } from '../filter.js';
import { tooManyIoOps } from './IoOpsFilter.js';

const KEY = 'max_io_ops_per_host';

/**
 * IoOpsFilter with a per-aggregate limit: the smallest `max_io_ops_per_host` in the host's
 * aggregate metadata, else `[filter_scheduler] max_io_ops_per_host`. One value that is not an
 * integer makes the config value apply (Nova logs a warning and does the same).
 */
export const AggregateIoOpsFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateIoOpsFilter',
  prepare: () => new Map(),
  hostPasses: (host, _spec, memo, ctx) =>
    host.num_io_ops < aggregateLimit(host, memo, KEY, ctx.config.filter_scheduler.max_io_ops_per_host, 'int'),
  explain: (host, _spec, memo, ctx) => {
    const fallback = ctx.config.filter_scheduler.max_io_ops_per_host;
    const max = aggregateLimit(host, memo, KEY, fallback, 'int');
    return tooManyIoOps(host, max, aggregateLimitOrigin(host, KEY, 'int', `[filter_scheduler] ${KEY}`));
  },
});

/**
 * A per-request memo of aggregate-derived answers, keyed by the host's aggregates array (the fleet
 * makes hosts with the same membership share it), so a 100k-host pass computes each answer once per
 * distinct membership and allocates nothing per host.
 */
export type AggregateMemo<T> = Map<readonly Aggregate[], T>;

/**
 * Nova's `validate_num_values(aggregate_values_from_key(host, key), fallback, cast, min)` with the
 * ValueError fallback, memoised. Shared by the Aggregate* limit and ratio filters.
 */
export function aggregateLimit(
  host: HostState,
  memo: AggregateMemo<number>,
  key: string,
  fallback: number,
  cast: 'int' | 'float',
): number {
  if (host.aggregates.length === 0) return fallback;
  let limit = memo.get(host.aggregates);
  if (limit === undefined) {
    limit = aggregateNumber(host, key, fallback, cast);
    memo.set(host.aggregates, limit);
  }
  return limit;
}

/** Where `aggregateLimit` took its value from, in words, for explanations. */
export function aggregateLimitOrigin(
  host: HostState,
  key: string,
  cast: 'int' | 'float',
  fallback: string,
): string {
  const values = aggregateValues(host, key);
  if (values.length === 0) return `${fallback}; no aggregate of the host sets ${key}`;
  const parse = cast === 'int' ? pyInt : pyFloat;
  const bad = values.find((v) => parse(v) === undefined);
  if (bad !== undefined) {
    return `${fallback}, because aggregate metadata ${key}='${bad}' is not ${cast === 'int' ? 'an integer' : 'a number'}`;
  }
  return `the smallest aggregate metadata ${key} among ${values.map((v) => `'${v}'`).join(', ')}`;
}
