import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import { consumeFromRequest } from './consume.js';
import type { EngineContext } from './context.js';
import { NoValidHostError } from './errors.js';
import { type Elimination, eliminationsOf, type HostWeight, type ScheduleDecision } from './explain.js';
import type { HostFilter } from './filter.js';
import { type FilterCount, type Removal, runFilters } from './filterHandler.js';
import { Fleet } from './fleet.js';
import { narrowHosts } from './narrow.js';
import { type PrefilterRemoval, placementPrefilter } from './prefilter/index.js';
import { seededRandom } from './random.js';
import type { HostWeigher } from './weigher.js';
import { rankHosts, weighHosts } from './weighing.js';

/**
 * Claims the request's resources on a host (Placement's PUT /allocations). Returning false makes the
 * scheduler try the next host, as Nova does when a claim races with another scheduler.
 */
export type Claim = (host: HostState, spec: RequestSpec, instanceUuid: string) => boolean | Promise<boolean>;

export interface ScheduleOptions {
  /** Keep every eliminated host with its reason and every weighed host (slower; for people). */
  explain?: boolean;
  claim?: Claim;
  now?: Date;
  /** Overrides the random source for host_subset_size / shuffle (tests, simulations). */
  random?: () => number;
  /** Return alternates (Nova: only when the caller asks; the conductor does for builds). */
  alternates?: boolean;
}

/**
 * Nova's FilterScheduler over in-memory host states: pre-filter, filters, weighers and selection
 * with in-memory consumption between instances, alternates and claims.
 */
export class Scheduler {
  private readonly random: () => number;

  constructor(
    readonly config: SchedulerConfig,
    readonly filters: readonly HostFilter<unknown>[],
    readonly weighers: readonly HostWeigher<unknown>[],
  ) {
    const seed = config.placid.seed;
    this.random = seed === null ? Math.random : seededRandom(seed);
  }

  async schedule(
    hostsOrFleet: readonly HostState[] | Fleet,
    input: RequestSpec,
    options: ScheduleOptions = {},
  ): Promise<ScheduleDecision> {
    const fleet = Fleet.from(hostsOrFleet);
    const explain = options.explain ?? false;
    const random = options.random ?? this.random;
    const now = options.now ?? new Date();
    // The request is copied: the group's hosts grow as instances are placed.
    const spec: RequestSpec = {
      ...input,
      instance_group: input.instance_group
        ? { ...input.instance_group, hosts: [...input.instance_group.hosts] }
        : null,
    };
    const counts: FilterCount[] = [];
    const removals: Removal[] = [];
    const preRemovals: PrefilterRemoval[] = [];
    const decision = (partial: Partial<ScheduleDecision>): ScheduleDecision => ({
      request_id: spec.request_id,
      placements: [],
      weighed: null,
      filter_counts: counts,
      eliminated: () => eliminationsOf(preRemovals, removals),
      error: null,
      ...partial,
    });
    const ctx0: EngineContext = { config: this.config, now, index: 0, fleet };

    let hosts: HostState[];
    if (isRebuild(spec) || !this.config.placid.placement_prefilter) hosts = fleet.hosts.slice();
    else {
      try {
        const pre = placementPrefilter(fleet.hosts, spec, ctx0, explain);
        hosts = pre.hosts;
        preRemovals.push(...pre.removals);
      } catch (err) {
        if (err instanceof NoValidHostError) return decision({ error: noValidHost(err.message) });
        throw err;
      }
      counts.push({ filter: 'Placement', start: fleet.hosts.length, end: hosts.length, instance_index: 0 });
      if (hosts.length === 0)
        return decision({
          error: noValidHost('No valid host was found. Placement returned no allocation candidates.'),
        });
    }

    const uuids = instanceUuids(spec);
    const numAlts = options.alternates === false ? 0 : this.config.scheduler.max_attempts - 1;
    const chosen: HostState[] = [];
    let weighed: HostWeight[] | null = null;
    for (let index = 0; index < uuids.length; index++) {
      spec.instance_uuid = uuids[index];
      const ctx: EngineContext = { ...ctx0, index };
      const sort = { explain, random, spares: numAlts + 8, full: uuids.length > 1 };
      const sorted = await this.sortedHosts(hosts, spec, ctx, sort, counts, removals);
      if (index === 0 && explain) weighed = sorted.weighed;
      hosts = sorted.hosts;
      if (hosts.length === 0) break;
      let claimed = await this.claimFirst(hosts, 0, spec, uuids[index], options.claim);
      if (claimed < 0 && sorted.remaining) {
        // Every host of the short list lost its claim race: go on down the full ranking.
        const tried = hosts.length;
        hosts = sorted.remaining();
        claimed = await this.claimFirst(hosts, tried, spec, uuids[index], options.claim);
      }
      if (claimed < 0) break;
      const host = consumeFromRequest(hosts[claimed], spec, uuids[index], this.config);
      hosts[claimed] = host;
      spec.instance_group?.hosts.push(host.host);
      chosen.push(host);
    }
    if (chosen.length !== uuids.length) {
      return decision({
        weighed,
        error: noValidHost('No valid host was found. There are not enough hosts available.'),
      });
    }

    let altSource = hosts;
    if (uuids.length > 1 && numAlts > 0) {
      const ctx: EngineContext = { ...ctx0, index: uuids.length - 1 };
      const sort = { explain: false, random, spares: numAlts, full: true };
      altSource = (await this.sortedHosts(hosts, spec, ctx, sort, [], [])).hosts;
    }
    const chosenKeys = new Set(chosen.map(hostKey));
    const placements = chosen.map((host, i) => ({
      instance_uuid: uuids[i],
      host,
      alternates: altSource
        .filter((h) => h.cell_uuid === host.cell_uuid && !chosenKeys.has(hostKey(h)))
        .slice(0, numAlts),
    }));
    return decision({ placements, weighed });
  }

  /**
   * Nova's `_get_sorted_hosts`: filter, weigh, optionally shuffle the best tie, then move a random
   * pick among the best `host_subset_size` to the front. Returns the survivors in that order.
   */
  private async sortedHosts(
    input: readonly HostState[],
    spec: RequestSpec,
    ctx: EngineContext,
    sort: SortOptions,
    counts: FilterCount[],
    removals: Removal[],
  ): Promise<SortedHosts> {
    const { explain, random } = sort;
    const narrowed = narrowHosts(input, spec);
    let filtered: HostState[];
    if (narrowed.skipFilters) filtered = narrowed.hosts;
    else {
      const run = await runFilters(this.filters, narrowed.hosts, spec, ctx, explain);
      counts.push(...run.counts);
      removals.push(...run.removals);
      filtered = run.hosts;
    }
    if (filtered.length === 0) return { hosts: [], weighed: explain ? [] : null, remaining: null };

    const fs = this.config.filter_scheduler;
    const { weights, traces } = weighHosts(this.weighers, filtered, spec, ctx, explain);
    const shuffle = fs.shuffle_best_same_weighed_hosts;
    const full = explain || sort.full || shuffle;
    // Only the best few are needed: the random subset, alternates, and spares for lost claims.
    let order = rankHosts(weights, full ? undefined : fs.host_subset_size + sort.spares);
    if (shuffle) order = shuffleBestTie(order, weights, random);
    const subset = Math.min(fs.host_subset_size, order.length);
    const pick = subset > 1 ? Math.floor(random() * subset) : 0;
    if (pick > 0) order = [order[pick], ...order.slice(0, pick), ...order.slice(pick + 1)];
    const hosts = order.map((i) => filtered[i]);
    const remaining =
      order.length < filtered.length
        ? () => {
            const seen = new Set(order);
            return [
              ...hosts,
              ...rankHosts(weights)
                .filter((i) => !seen.has(i))
                .map((i) => filtered[i]),
            ];
          }
        : null;
    const weighed = explain
      ? rankHosts(weights).map((i) => ({
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

  /** Index of the first host from `from` on (chosen first, then by weight) whose claim succeeds, or -1. */
  private async claimFirst(
    hosts: HostState[],
    from: number,
    spec: RequestSpec,
    uuid: string,
    claim?: Claim,
  ): Promise<number> {
    if (!claim) return hosts.length > from ? from : -1;
    for (let i = from; i < hosts.length; i++) if (await claim(hosts[i], spec, uuid)) return i;
    return -1;
  }
}

interface SortOptions {
  explain: boolean;
  random: () => number;
  /** Hosts to rank beyond host_subset_size when a full order is not needed. */
  spares: number;
  /** Rank every host (multi-create: later instances see the survivors in weight order). */
  full: boolean;
}

interface SortedHosts {
  hosts: HostState[];
  weighed: HostWeight[] | null;
  /** The full ranking, when `hosts` is only the best few. */
  remaining: (() => HostState[]) | null;
}

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

function instanceUuids(spec: RequestSpec): string[] {
  if (spec.instance_uuids && spec.instance_uuids.length > 0) return spec.instance_uuids;
  if (spec.num_instances === 1 && spec.instance_uuid) return [spec.instance_uuid];
  return Array.from({ length: spec.num_instances }, (_, i) => `${spec.request_id}-instance-${i}`);
}

function hostKey(h: HostState): string {
  return `${h.host}\u0000${h.nodename}`;
}

function noValidHost(message: string): { type: 'NoValidHost'; message: string } {
  return { type: 'NoValidHost', message };
}

export type { Elimination };
