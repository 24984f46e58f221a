import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import {
  acquireBuffers,
  type Candidates,
  candidateHosts,
  type DecisionBuffers,
  releaseBuffers,
} from './candidates.js';
import { consumeFromRequest } from './consume.js';
import type { EngineContext } from './context.js';
import { NoValidHostError } from './errors.js';
import { type Elimination, eliminationsOf, type HostWeight, type ScheduleDecision } from './explain.js';
import type { HostFilter } from './filter.js';
import { Fleet } from './fleet.js';
import { narrows, resolvedDestination } from './narrow.js';
import { PlacementClaims } from './placementClaim.js';
import { fleetIndex } from './prefilter/fleetIndex.js';
import { type PrefilterRemoval, placementPrefilter, prefilterPositions } from './prefilter/index.js';
import { seededRandom } from './random.js';
import { sortCandidates } from './sortCandidates.js';
import { type SortLog, sortHosts } from './sortHosts.js';
import type { HostWeigher } from './weigher.js';

/**
 * Claims the request's resources on a host (Placement's PUT /allocations). Returning false makes the
 * scheduler try the next host, as Nova does when a claim races with another scheduler.
 */
export type Claim = (host: HostState, spec: RequestSpec, instanceUuid: string) => boolean | Promise<boolean>;

export interface ScheduleOptions {
  /** Keep every eliminated host with its reason and every weighed host (slower; for people). */
  explain?: boolean;
  /**
   * Keep every survivor of the first instance with its final weight (no breakdown, no reasons), on
   * the fast path: what an advisory answer needs. Implied by `explain`.
   */
  weights?: boolean;
  /**
   * Claims each instance. Without one, a multi-create claims in memory as Placement would (when the
   * Placement pre-filter is on); a rebuild never claims, as in Nova.
   */
  claim?: Claim;
  now?: Date;
  /** Overrides the random source for host_subset_size / shuffle (tests, simulations). */
  random?: () => number;
  /** Return alternates (Nova: only when the caller asks; the conductor does for builds). */
  alternates?: boolean;
}

/** Ranked beyond host_subset_size and the alternates, so a few lost claims need no full sort. */
const SPARE_HOSTS = 8;

/**
 * Nova's FilterScheduler over in-memory host states: pre-filter, filters, weighers and selection
 * with in-memory consumption between instances, alternates and claims (`_schedule`).
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
    // An unexplained decision works on positions into the fleet (candidates.ts) in reused buffers.
    const buffers = options.explain ? null : acquireBuffers(fleet.hosts.length);
    try {
      return await this.decide(fleet, input, options, buffers);
    } finally {
      if (buffers) releaseBuffers(buffers);
    }
  }

  private async decide(
    fleet: Fleet,
    input: RequestSpec,
    options: ScheduleOptions,
    buffers: DecisionBuffers | null,
  ): Promise<ScheduleDecision> {
    const explain = options.explain ?? false;
    const random = options.random ?? this.random;
    const uuids = instanceUuids(input);
    const spec = requestCopy(input, uuids);
    const log: SortLog = { counts: [], removals: [], narrowed: [] };
    const preRemovals: PrefilterRemoval[] = [];
    const decision = (partial: Partial<ScheduleDecision>): ScheduleDecision => ({
      request_id: spec.request_id,
      placements: [],
      weighed: null,
      filter_counts: log.counts,
      eliminated: () => eliminationsOf([...preRemovals, ...log.narrowed], log.removals),
      error: null,
      ...partial,
    });
    const ctx0: EngineContext = { config: this.config, now: options.now ?? new Date(), index: 0, fleet };

    // A rebuild only re-checks the current host: no Placement query and no claim (Nova's legacy path).
    const rebuild = isRebuild(spec);
    const placement = !rebuild && this.config.placid.placement_prefilter;
    let hosts: HostState[] = [];
    let candidates = buffers && fleetCandidates(fleet, buffers);
    if (!placement) {
      if (candidates) candidates.count = everyPosition(candidates.positions, fleet.hosts.length);
      else hosts = fleet.hosts.slice();
    } else {
      try {
        if (candidates) candidates.count = prefilterPositions(fleet.hosts, spec, ctx0, candidates.positions);
        else {
          const pre = placementPrefilter(fleet.hosts, spec, ctx0, explain);
          hosts = pre.hosts;
          preRemovals.push(...pre.removals);
        }
      } catch (err) {
        if (err instanceof NoValidHostError) return decision({ error: noValidHost(err.message) });
        throw err;
      }
      const end = candidates ? candidates.count : hosts.length;
      log.counts.push({ filter: 'Placement', start: fleet.hosts.length, end, instance_index: 0 });
      if (end === 0)
        return decision({
          error: noValidHost('No valid host was found. Placement returned no allocation candidates.'),
        });
      spec.requested_destination = resolvedDestination(spec, fleet.hosts);
    }
    // Narrowing by name (requested_destination, ignore/force hosts) works on host lists.
    if (candidates && narrows(spec)) {
      hosts = candidateHosts(candidates);
      candidates = null;
    }
    const claim = rebuild ? undefined : (options.claim ?? this.memoryClaim(placement, uuids, spec));

    const plugins = { filters: this.filters, weighers: this.weighers };
    // Nova's conductor asks for no alternates on a rebuild (it re-checks the instance's own host).
    const numAlts = options.alternates === false || rebuild ? 0 : this.config.scheduler.max_attempts - 1;
    const chosen: HostState[] = [];
    let weighed: HostWeight[] | null = null;
    // The full ranking of the last instance's survivors, when `hosts` holds only the best few.
    let rest: (() => HostState[]) | null = null;
    for (let index = 0; index < uuids.length; index++) {
      spec.instance_uuid = uuids[index];
      const ctx: EngineContext = { ...ctx0, index };
      const sort = {
        explain,
        random,
        spares: numAlts + SPARE_HOSTS,
        full: uuids.length > 1,
        weights: index === 0 && options.weights === true,
      };
      const sorted = candidates
        ? await sortCandidates(plugins, candidates, spec, ctx, sort, log, buffers!.weights)
        : await sortHosts(plugins, hosts, spec, ctx, sort, log);
      // Later instances work on this instance's sorted list, which holds consumed copies.
      candidates = null;
      if (index === 0 && (explain || options.weights)) weighed = sorted.weighed;
      // Nova replaces the candidates with this instance's sorted survivors: the list only shrinks.
      hosts = sorted.hosts;
      rest = sorted.remaining;
      if (hosts.length === 0) break;
      let claimed = await claimFirst(hosts, 0, spec, uuids[index], claim);
      if (claimed < 0 && rest) {
        // Every host of the short list lost its claim: go on down the full ranking.
        const tried = hosts.length;
        hosts = rest();
        rest = null;
        claimed = await claimFirst(hosts, tried, spec, uuids[index], claim);
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

    // Nova filters and weighs the survivors again after the last pick of a multi-create.
    if (uuids.length > 1 && numAlts > 0) {
      const ctx: EngineContext = { ...ctx0, index: uuids.length - 1 };
      const sort = { explain: false, random, spares: numAlts, full: true };
      hosts = (await sortHosts(plugins, hosts, spec, ctx, sort, null)).hosts;
    }
    const chosenKeys = new Set(chosen.map(hostKey));
    const placements = chosen.map((host, i) => {
      let alternates = alternatesFor(host, hosts, chosenKeys, numAlts);
      // Same-cell hosts may rank below the short list; Nova's list holds every survivor.
      if (alternates.length < numAlts && rest) alternates = alternatesFor(host, rest(), chosenKeys, numAlts);
      return { instance_uuid: uuids[i], host, alternates };
    });
    return decision({ placements, weighed });
  }

  /** Placement's claims in memory: only a multi-create can be refused (its earlier instances count). */
  private memoryClaim(placement: boolean, uuids: readonly string[], spec: RequestSpec): Claim | undefined {
    return placement && uuids.length > 1 ? new PlacementClaims(spec, this.config).claim : undefined;
  }
}

/**
 * Nova's `_get_alternate_hosts` for one selected host: up to `numAlts` hosts from the sorted list,
 * in order, from the same cell, never a host selected for any instance of the request.
 */
function alternatesFor(
  selected: HostState,
  sorted: readonly HostState[],
  chosenKeys: ReadonlySet<string>,
  numAlts: number,
): HostState[] {
  const out: HostState[] = [];
  for (const h of sorted) {
    if (out.length >= numAlts) break;
    if (h.cell_uuid === selected.cell_uuid && !chosenKeys.has(hostKey(h))) out.push(h);
  }
  return out;
}

/** Index of the first host from `from` on (chosen first, then by weight) whose claim succeeds, or -1. */
async function claimFirst(
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

/** Candidates of the fleet in the decision's buffers, none yet. */
function fleetCandidates(fleet: Fleet, buffers: DecisionBuffers): Candidates {
  return { hosts: fleet.hosts, index: fleetIndex(fleet.hosts), positions: buffers.positions, count: 0 };
}

function everyPosition(positions: Int32Array, n: number): number {
  for (let i = 0; i < n; i++) positions[i] = i;
  return n;
}

function instanceUuids(spec: RequestSpec): string[] {
  if (spec.instance_uuids && spec.instance_uuids.length > 0) return spec.instance_uuids;
  if (spec.num_instances === 1 && spec.instance_uuid) return [spec.instance_uuid];
  return Array.from({ length: spec.num_instances }, (_, i) => `${spec.request_id}-instance-${i}`);
}

/**
 * The scheduler's own copy of the request: the group's hosts grow as instances are placed, and the
 * new instances are members of the group, as Nova's API records them before it asks the scheduler.
 */
function requestCopy(input: RequestSpec, uuids: readonly string[]): RequestSpec {
  const group = input.instance_group;
  if (!group) return { ...input };
  const members = [...group.members, ...uuids.filter((u) => !group.members.includes(u))];
  return { ...input, instance_group: { ...group, hosts: [...group.hosts], members } };
}

function hostKey(h: HostState): string {
  return `${h.host}\u0000${h.nodename}`;
}

function noValidHost(message: string): { type: 'NoValidHost'; message: string } {
  return { type: 'NoValidHost', message };
}

export type { Elimination };
