import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { type AggregateMemo, aggregateLimit, aggregateLimitOrigin } from './aggregates.js';

export type ResourceKind = 'cpu' | 'ram' | 'disk';

/**
 * The allocation ratio in force for a host: what the host reports (its compute service's ratio, as
 * Nova's scheduler reads it from the compute node), else `[DEFAULT] <kind>_allocation_ratio` (the
 * compute-side default this config would give it), else `initial_<kind>_allocation_ratio`.
 */
export function allocationRatio(host: HostState, kind: ResourceKind, config: SchedulerConfig): number {
  const d = config.DEFAULT;
  if (kind === 'cpu')
    return host.cpu_allocation_ratio ?? d.cpu_allocation_ratio ?? d.initial_cpu_allocation_ratio;
  if (kind === 'ram')
    return host.ram_allocation_ratio ?? d.ram_allocation_ratio ?? d.initial_ram_allocation_ratio;
  return host.disk_allocation_ratio ?? d.disk_allocation_ratio ?? d.initial_disk_allocation_ratio;
}

/** Where `allocationRatio` took the host's ratio from, in words (for the Ram, Core and Disk filters). */
export function ratioOrigin(host: HostState, kind: ResourceKind, config: SchedulerConfig): string {
  const option = `${kind}_allocation_ratio` as const;
  if (host[option] !== null) return 'reported by the host';
  if (config.DEFAULT[option] !== null) return `[DEFAULT] ${option}, as the host reports none`;
  return `[DEFAULT] initial_${option}, as the host reports none`;
}

const RATIO_OPTIONS = ['cpu_allocation_ratio', 'ram_allocation_ratio', 'disk_allocation_ratio'] as const;

/**
 * One warning per `[DEFAULT] <kind>_allocation_ratio` that differs from a ratio some host reports.
 * Those options belong to the compute service; an operator sharing one nova.conf may expect them to
 * apply fleet-wide, but the reported ratio wins (as in Nova), so say so instead of silently ignoring it.
 */
export function ratioConfigWarnings(hosts: Iterable<HostState>, config: SchedulerConfig): string[] {
  const differing = new Map<string, { count: number; example: string; reported: number }>();
  for (const host of hosts) {
    for (const option of RATIO_OPTIONS) {
      const configured = config.DEFAULT[option];
      const reported = host[option];
      if (configured === null || reported === null || reported === configured) continue;
      const seen = differing.get(option);
      if (seen) seen.count++;
      else differing.set(option, { count: 1, example: host.host, reported });
    }
  }
  return [...differing].map(
    ([option, { count, example, reported }]) =>
      `[DEFAULT] ${option} = ${config.DEFAULT[option as (typeof RATIO_OPTIONS)[number]]} is not applied to ` +
      `${count} host(s) that report their own ratio (e.g. ${example} reports ${reported}); ` +
      'a reported ratio wins, the option only sets the ratio of hosts that report none',
  );
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

/**
 * Where a capacity filter takes a host's allocation ratio from, and how it says so: the host's own
 * (Ram, Core and Disk filters) or its aggregates' (their Aggregate variants, with a per-request memo).
 */
export interface RatioSource<S> {
  ratio(host: HostState, state: S, config: SchedulerConfig): number;
  origin(host: HostState, config: SchedulerConfig): string;
}

export function hostRatios(kind: ResourceKind): RatioSource<unknown> {
  return {
    ratio: (host, _state, config) => allocationRatio(host, kind, config),
    origin: (host, config) => ratioOrigin(host, kind, config),
  };
}

export function aggregateRatios(kind: ResourceKind): RatioSource<AggregateMemo<number>> {
  return {
    ratio: (host, memo, config) => aggregateRatio(host, memo, kind, config),
    origin: (host, config) => aggregateRatioOrigin(host, kind, config),
  };
}
