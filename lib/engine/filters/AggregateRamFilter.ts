import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import type { EngineContext } from '../context.js';
import { defineFilter } from '../filter.js';
import { allocationRatio, type ResourceKind } from '../ratios.js';
import { type AggregateMemo, aggregateLimit, aggregateLimitOrigin } from './AggregateIoOpsFilter.js';
import { ramFits, ramShortfall, ratioOrigin } from './RamFilter.js';

/**
 * RamFilter (removed from Nova in Victoria) with the ratio taken from the host's aggregates: the
 * smallest `ram_allocation_ratio` in their metadata, else the host's own ratio, which also applies
 * when one aggregate value is not a number. Like RamFilter, it does not record `limits['memory_mb']`.
 */
export const AggregateRamFilter = defineFilter<AggregateMemo<number>>({
  name: 'AggregateRamFilter',
  prepare: () => new Map(),
  hostPasses: (host, spec, memo, ctx) =>
    ramFits(host, spec.flavor.memory_mb, aggregateRatio(host, memo, 'ram', ctx)),
  explain: (host, spec, memo, ctx) =>
    ramShortfall(
      host,
      spec.flavor.memory_mb,
      aggregateRatio(host, memo, 'ram', ctx),
      aggregateRatioOrigin(host, 'ram', ctx.config),
    ),
});

/**
 * `validate_num_values(aggregate <kind>_allocation_ratio values, host ratio, float, min)`, with the
 * host ratio also on a ValueError. Shared by the Aggregate Ram, Core and Disk filters.
 */
export function aggregateRatio(
  host: HostState,
  memo: AggregateMemo<number>,
  kind: ResourceKind,
  ctx: EngineContext,
): number {
  // The memo is per membership but the fallback is per host, so NaN stands for "no usable
  // aggregate value" (aggregateNumber never returns NaN for values it parsed).
  const fromAggregates = aggregateLimit(host, memo, `${kind}_allocation_ratio`, Number.NaN, 'float');
  return Number.isNaN(fromAggregates) ? allocationRatio(host, kind, ctx.config) : fromAggregates;
}

export function aggregateRatioOrigin(host: HostState, kind: ResourceKind, config: SchedulerConfig): string {
  return aggregateLimitOrigin(host, `${kind}_allocation_ratio`, 'float', ratioOrigin(host, kind, config));
}
