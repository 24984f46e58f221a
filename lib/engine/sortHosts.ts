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
  /** Every survivor with its weight, best first and ties in input order (only when explained). */
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
  const { explain, random } = sort;
  const narrowed = narrowHosts(input, spec, explain && log !== null);
  log?.narrowed.push(...narrowed.removals);
  let filtered: HostState[];
  if (narrowed.skipFilters) filtered = narrowed.hosts;
  else {
    const run = await runFilters(plugins.filters, narrowed.hosts, spec, ctx, explain && log !== null);
    log?.counts.push(...run.counts);
    log?.removals.push(...run.removals);
    filtered = run.hosts;
  }
  if (filtered.length === 0) return { hosts: [], weighed: explain ? [] : null, remaining: null };

  const fs = ctx.config.filter_scheduler;
  const { weights, traces } = weighHosts(plugins.weighers, filtered, spec, ctx, explain);
  const shuffle = fs.shuffle_best_same_weighed_hosts;
  const full = explain || sort.full || shuffle;
  const ranking = rankHosts(weights, full ? undefined : fs.host_subset_size + sort.spares);
  let order = shuffle ? shuffleBestTie(ranking, weights, random) : ranking;
  const subset = Math.min(fs.host_subset_size, order.length);
  const pick = subset > 1 ? Math.floor(random() * subset) : 0;
  if (pick > 0) order = [order[pick], ...order.slice(0, pick), ...order.slice(pick + 1)];
  const hosts = order.map((i) => filtered[i]);
  const remaining =
    order.length < filtered.length
      ? () => {
          const seen = new Set(order);
          const rest = rankHosts(weights).filter((i) => !seen.has(i));
          return [...hosts, ...rest.map((i) => filtered[i])];
        }
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
    : null;
  return { hosts, weighed, remaining };
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
