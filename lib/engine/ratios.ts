import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { type AggregateMemo, aggregateLimit, aggregateLimitOrigin } from './aggregates.js';

export type ResourceKind = 'cpu' | 'ram' | 'disk';

/**
 * The allocation ratio in force for a host: `[DEFAULT] <kind>_allocation_ratio` when set (the compute
 * node's config), else what the host reports, else `initial_<kind>_allocation_ratio`.
 */
export function allocationRatio(host: HostState, kind: ResourceKind, config: SchedulerConfig): number {
  const d = config.DEFAULT;
  if (kind === 'cpu')
    return d.cpu_allocation_ratio ?? host.cpu_allocation_ratio ?? d.initial_cpu_allocation_ratio;
  if (kind === 'ram')
    return d.ram_allocation_ratio ?? host.ram_allocation_ratio ?? d.initial_ram_allocation_ratio;
  return d.disk_allocation_ratio ?? host.disk_allocation_ratio ?? d.initial_disk_allocation_ratio;
}

/** Where `allocationRatio` took the host's ratio from, in words (for the Ram, Core and Disk filters). */
export function ratioOrigin(host: HostState, kind: ResourceKind, config: SchedulerConfig): string {
  const option = `${kind}_allocation_ratio` as const;
  if (config.DEFAULT[option] !== null) return `[DEFAULT] ${option}`;
  if (host[option] !== null) return 'reported by the host';
  return `[DEFAULT] initial_${option}, as the host reports none`;
}

/**
 * `validate_num_values(aggregate <kind>_allocation_ratio values, host ratio, float, min)`, with the
 * host ratio also on a ValueError. Shared by the Aggregate Ram, Core and Disk filters.
 */
export function aggregateRatio(
  host: HostState,
  memo: AggregateMemo<number>,
  kind: ResourceKind,
  config: SchedulerConfig,
): number {
  // The memo is per membership but the fallback is per host, so NaN stands for "no usable
  // aggregate value" (aggregateNumber never returns NaN for values it parsed).
  const fromAggregates = aggregateLimit(host, memo, `${kind}_allocation_ratio`, Number.NaN, 'float');
  return Number.isNaN(fromAggregates) ? allocationRatio(host, kind, config) : fromAggregates;
}

/** Where `aggregateRatio` took the host's ratio from, in words. */
export function aggregateRatioOrigin(host: HostState, kind: ResourceKind, config: SchedulerConfig): string {
  return aggregateLimitOrigin(host, `${kind}_allocation_ratio`, 'float', ratioOrigin(host, kind, config));
}

/** Rounds MB / vCPU figures for explanations, so 1.1 × 1000 reads 1100, not 1100.0000000000002. */
export function roundForDisplay(n: number): number {
  return Math.round(n * 100) / 100;
}
