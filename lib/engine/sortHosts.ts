import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import type { HostWeight } from './explain.js';
import type { HostFilter } from './filter.js';
import { type FilterCount, type Removal, runFilters } from './filterHandler.js';
import { type NarrowRemoval, narrowHosts } from './narrow.js';
import type { HostWeigher } from './weigher.js';
import { rankHosts, weighHosts } from './weighing.js';

export interface SortOptions {
  /** Keep every removal with its reason and every weighed host (slower; for people). */
  explain: boolean;
  random: () => number;
  /** Hosts to rank beyond host_subset_size when a full order is not needed. */
  spares: number;
  /** Rank every host (a multi-create hands the whole sorted list to the next instance). */
  full: boolean;
  /** Give every survivor's weight (`weighed` without breakdowns) even when not explained. */
  weights?: boolean;
}

/** Where one sort records what it did (counts and removals feed the explanation). */
export interface SortLog {
  counts: FilterCount[];
  removals: Removal[];
  narrowed: NarrowRemoval[];
}

export interface SortedHosts {
  /** The chosen host first, then the rest best first: every survivor, or only the best few. */
  hosts: HostState[];
  /** Every survivor with its weight, best first and ties in input order (when explained or asked). */
  weighed: HostWeight[] | null;
  /** Every survivor in the order of `hosts`, when `hosts` is only the best few. */
  remaining: (() => HostState[]) | null;
}

export interface Plugins {
  filters: readonly HostFilter<unknown>[];
  weighers: readonly HostWeigher<unknown>[];
}

/**
 * Nova's `_get_sorted_hosts`: narrow (requested_destination, ignore/force), filter, weigh,
 * optionally shuffle the best tie, then move a random pick among the best `host_subset_size` to the
 * front. When only the best few are needed (no explanation, one instance) the ranking stops there;
 * `remaining` gives the rest, in exactly the order a full stable sort would.
 */
export async function sortHosts(
  plugins: Plugins,
  input: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  sort: SortOptions,
  log: SortLog | null,
): Promise<SortedHosts> {
  const { explain } = sort;
  const narrowed = narrowHosts(input, spec, explain && log !== null);
  log?.narrowed.push(...narrowed.removals);
  let filtered: readonly HostState[];
  if (narrowed.skipFilters) filtered = narrowed.hosts;
  else {
    const run = await runFilters(plugins.filters, narrowed.hosts, spec, ctx, explain && log !== null);
    log?.counts.push(...run.counts);
    log?.removals.push(...run.removals);
    filtered = run.hosts;
  }
  if (filtered.length === 0) return { hosts: [], weighed: explain ? [] : null, remaining: null };

  const { weights, traces } = weighHosts(plugins.weighers, filtered, spec, ctx, explain);
  const { ranking, order } = selectionOrder(weights, ctx.config.filter_scheduler, sort);
  const hosts = order.map((i) => filtered[i]);
  const remaining =
    order.length < filtered.length
      ? () => [...hosts, ...remainingOrder(weights, order).map((i) => filtered[i])]
      : null;
  const weighed = explain
    ? ranking.map((i) => ({
        host: filtered[i],
        weight: weights[i],
        breakdown: traces.map((t) => ({
          weigher: t.weigher,
          raw: t.raw[i],
          normalized: t.normalized[i],
          multiplier: t.multiplier[i],
        })),
      }))
    : sort.weights
      ? weightsOnly(weights, (i) => filtered[i])
      : null;
  return { hosts, weighed, remaining };
}

/** Every survivor with its final weight, best first, ties in input order; no breakdown. */
export function weightsOnly(weights: Float64Array, hostAt: (i: number) => HostState): HostWeight[] {
  return rankHosts(weights).map((i) => ({ host: hostAt(i), weight: weights[i], breakdown: [] }));
}

/**
 * The selection order of weighed hosts (indexes into `weights`): best first, ties in input order,
 * the best tie shuffled when configured, then a random pick among the best host_subset_size moved
 * to the front. Only the best few are ranked unless the options ask for every host. `ranking` is
 * the order before the shuffle and the pick.
 */
export function selectionOrder(
  weights: Float64Array,
  fs: SchedulerConfig['filter_scheduler'],
  sort: SortOptions,
): { ranking: number[]; order: number[] } {
  const shuffle = fs.shuffle_best_same_weighed_hosts;
  const full = sort.explain || sort.full || shuffle;
  const ranking = rankHosts(weights, full ? undefined : fs.host_subset_size + sort.spares);
  let order = shuffle ? shuffleBestTie(ranking, weights, sort.random) : ranking;
  const subset = Math.min(fs.host_subset_size, order.length);
  const pick = subset > 1 ? Math.floor(sort.random() * subset) : 0;
  if (pick > 0) order = [order[pick], ...order.slice(0, pick), ...order.slice(pick + 1)];
  return { ranking, order };
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
