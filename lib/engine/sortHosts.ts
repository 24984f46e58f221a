import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import type { EngineContext } from './context.js';
import type { HostFilter } from './filter.js';
import { type FilterCount, runFilters } from './filterHandler.js';
import { narrowHosts, narrows } from './narrow.js';
import type { DecisionTrace } from './trace.js';
import type { HostWeigher } from './weigher.js';
import { rankHosts, type WeigherPart, weighHosts } from './weighing.js';

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

/** The filters and weighers one scheduler runs, in the configured order (resolved from config and Plugins). */
export interface EnabledPlugins {
  filters: readonly HostFilter<unknown>[];
  weighers: readonly HostWeigher<unknown>[];
}

/**
 * Nova's `_get_sorted_hosts`: narrow (requested_destination, ignore/force), filter, weigh,
 * optionally shuffle the best tie, then move a random pick among the best `host_subset_size` to
 * the front. Unless `sort.full`, the ranking stops after the best few; `remaining` gives the rest,
 * in exactly the order a full stable sort would.
 *
 * `counts` gets the per-filter counts; `trace`, when given, notes what each step removed and the
 * weighing, for an explanation (the same run, recorded, not another one).
 */
export async function sortHosts(
  plugins: EnabledPlugins,
  candidates: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
  sort: SortOptions,
  counts: FilterCount[] | null,
  trace: DecisionTrace | null = null,
): Promise<SortedHosts> {
  let hosts = candidates;
  let skipFilters = false;
  if (narrows(spec)) {
    const narrowed = narrowHosts(hosts, spec, trace?.explains ?? false);
    trace?.narrowedBy(narrowed.removals, ctx);
    hosts = narrowed.hosts;
    skipFilters = narrowed.skipFilters;
  }
  if (!skipFilters) {
    const filtered = await runFilters(plugins.filters, hosts, spec, ctx, trace?.removals ?? null);
    counts?.push(...filtered.counts);
    hosts = filtered.hosts;
  }
  const parts: WeigherPart[] | null = trace?.explains ? [] : null;
  const weights = weighHosts(plugins.weighers, hosts, spec, ctx, parts);
  trace?.weighed(hosts, weights, parts ?? [], ctx);
  if (hosts.length === 0) return { hosts: [], remaining: null };

  const order = selectionOrder(weights, ctx.config.filter_scheduler, sort);
  const sorted = order.map((j) => hosts[j]);
  const remaining =
    order.length < hosts.length
      ? () => [...sorted, ...remainingOrder(weights, order).map((j) => hosts[j])]
      : null;
  return { hosts: sorted, remaining };
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
