import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { Candidates } from './candidates.js';
import type { EngineContext } from './context.js';
import type { HostFilter } from './filter.js';
import type { FilterCount } from './filterHandler.js';
import { narrowCandidates, narrows } from './narrow.js';
import type { DecisionRecord } from './recording.js';
import { sieve } from './sieve.js';
import { type WeighingRecord, weighCandidates } from './weighCandidates.js';
import type { HostWeigher } from './weigher.js';
import { rankHosts } from './weighing.js';

export interface SortOptions {
  random: () => number;
  /** Hosts to rank beyond host_subset_size when a full order is not needed. */
  spares: number;
  /** Rank every host (a multi-create hands the whole sorted list to the next instance). */
  full: boolean;
}

export interface SortedHosts {
  /** The chosen host first, then the rest best first: every survivor, or only the best few. */
  hosts: HostState[];
  /** Every survivor in the order of `hosts`, when `hosts` is only the best few. */
  remaining: (() => HostState[]) | null;
}

export interface Plugins {
  filters: readonly HostFilter<unknown>[];
  weighers: readonly HostWeigher<unknown>[];
}

/**
 * Nova's `_get_sorted_hosts` over candidate positions: narrow (requested_destination,
 * ignore/force), filter, weigh, optionally shuffle the best tie, then move a random pick among the
 * best `host_subset_size` to the front. Host objects are read only where a filter or weigher needs
 * them. Unless `sort.full`, the ranking stops after the best few; `remaining` gives the rest, in
 * exactly the order a full stable sort would. `weights` is the decision's buffer (at least the
 * hosts' size); `remaining` reads it and `c`, so it must be called before they are reused.
 *
 * `counts` gets the per-filter counts; `record`, when given, notes what each stage removed and the
 * weighing, for an explanation (the same run, recorded, not another one).
 */
export async function sortHosts(
  plugins: Plugins,
  c: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  sort: SortOptions,
  weights: Float64Array,
  counts: FilterCount[] | null,
  record: DecisionRecord | null = null,
): Promise<SortedHosts> {
  const skipFilters =
    narrows(spec) && narrowCandidates(c, spec, record?.narrowing(c.hosts, spec, ctx) ?? null);
  if (!skipFilters) {
    const removedBy = record?.explains ? record.filterRemovals(c.hosts.length) : null;
    const run = await sieve(plugins.filters, c, spec, ctx, removedBy);
    counts?.push(...run.counts);
    if (record && removedBy) record.filtered(c.hosts, removedBy, run.stages, spec, ctx);
  }
  const n = c.count;
  const weighing: WeighingRecord | null = record?.explains ? { weighers: [], record } : null;
  if (n > 0) weighCandidates(plugins.weighers, c, spec, ctx, weights, weighing);
  record?.weighed(c.hosts, c.positions, weights, n, weighing?.weighers ?? [], ctx);
  if (n === 0) return { hosts: [], remaining: null };

  const survivorWeights = weights.subarray(0, n);
  const order = selectionOrder(survivorWeights, ctx.config.filter_scheduler, sort);
  const { hosts: all, positions } = c;
  const hosts = order.map((j) => all[positions[j]]);
  const remaining =
    order.length < n
      ? () => [...hosts, ...remainingOrder(survivorWeights, order).map((j) => all[positions[j]])]
      : null;
  return { hosts, remaining };
}

/**
 * The selection order of weighed hosts (indexes into `weights`): best first, ties in input order,
 * the best tie shuffled when configured, then a random pick among the best host_subset_size moved
 * to the front. Only the best few are ranked unless the options ask for every host.
 */
export function selectionOrder(
  weights: Float64Array,
  fs: SchedulerConfig['filter_scheduler'],
  sort: SortOptions,
): number[] {
  const shuffle = fs.shuffle_best_same_weighed_hosts;
  const full = sort.full || shuffle;
  const ranking = rankHosts(weights, full ? undefined : fs.host_subset_size + sort.spares);
  let order = shuffle ? shuffleBestTie(ranking, weights, sort.random) : ranking;
  const subset = Math.min(fs.host_subset_size, order.length);
  const pick = subset > 1 ? Math.floor(sort.random() * subset) : 0;
  if (pick > 0) order = [order[pick], ...order.slice(0, pick), ...order.slice(pick + 1)];
  return order;
}

/** Every index of `weights` not in `order`, in ranking order (the rest after a partial ranking). */
export function remainingOrder(weights: Float64Array, order: readonly number[]): number[] {
  const seen = new Set(order);
  return rankHosts(weights).filter((i) => !seen.has(i));
}

/** Nova's shuffle of the hosts tied with the best weight (Fisher-Yates, as random.shuffle). */
function shuffleBestTie(order: number[], weights: Float64Array, random: () => number): number[] {
  if (order.length === 0) return order;
  const best = weights[order[0]];
  let n = 0;
  while (n < order.length && weights[order[n]] === best) n++;
  const head = order.slice(0, n);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [head[i], head[j]] = [head[j], head[i]];
  }
  return [...head, ...order.slice(n)];
}
