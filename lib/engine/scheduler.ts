import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import { BufferPool } from './bufferPool.js';
import {
  acquireBuffers,
  type Candidates,
  type DecisionBuffers,
  listCandidates,
  releaseBuffers,
} from './candidates.js';
import { consumeFromRequest } from './consume.js';
import type { EngineContext } from './context.js';
import { DecisionReleasedError, NoValidHostError } from './errors.js';
import type { Elimination, ScheduleDecision } from './explain.js';
import type { HostFilter } from './filter.js';
import type { FilterCount } from './filterHandler.js';
import { Fleet } from './fleet.js';
import { resolvedDestination } from './narrow.js';
import { PlacementClaims } from './placementClaim.js';
import { fleetIndex } from './prefilter/fleetIndex.js';
import { prefilterCheck } from './prefilter/index.js';
import { seededRandom } from './random.js';
import { DecisionRecord } from './recording.js';
import { type Plugins, type SortedHosts, sortHosts } from './sortHosts.js';
import type { HostWeigher } from './weigher.js';

/**
 * Claims the request's resources on a host (Placement's PUT /allocations). Returning false makes the
 * scheduler try the next host, as Nova does when a claim races with another scheduler.
 */
export type Claim = (host: HostState, spec: RequestSpec, instanceUuid: string) => boolean | Promise<boolean>;

export interface ScheduleOptions {
  /** Record every eliminated host and every weighed host (their reasons are built when read). */
  explain?: boolean;
  /**
   * Keep every survivor of the first instance with its final weight (no breakdown, no reasons):
   * what an advisory answer needs. Implied by `explain`.
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
  /** Explained decisions' recordings borrow from here; a released decision gives back (recording.ts). */
  private readonly recordings = new BufferPool();

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
    // A decision works on positions into the fleet (candidates.ts) in reused buffers.
    const buffers = acquireBuffers(fleet.hosts.length);
    try {
      return await this.decide(fleet, input, options, buffers);
    } finally {
      releaseBuffers(buffers);
    }
  }

  /**
   * One decision, explained or not: the same stages over the same positions; an explanation only
   * records what each stage removed (recording.ts) and builds its words when they are read.
   */
  private async decide(
    fleet: Fleet,
    input: RequestSpec,
    options: ScheduleOptions,
    buffers: DecisionBuffers,
  ): Promise<ScheduleDecision> {
    const uuids = instanceUuids(input);
    const spec = requestCopy(input, uuids);
    const run: Run = {
      spec,
      uuids,
      random: options.random ?? this.random,
      counts: [],
      record:
        options.explain || options.weights
          ? new DecisionRecord(this.recordings, options.explain ?? false)
          : null,
      buffers,
      ctx: { config: this.config, now: options.now ?? new Date(), index: 0, fleet },
    };
    // A rebuild only re-checks the current host: no Placement query and no claim (Nova's legacy path).
    const rebuild = isRebuild(spec);
    const placement = !rebuild && this.config.placid.placement_prefilter;
    // The pre-filter writes its own candidates; without it every host is one.
    const candidates = fleetCandidates(fleet, buffers, !placement);
    if (placement) {
      const error = prefilter(run, candidates);
      if (error) return decisionOf(run, { error });
    }
    const claim = rebuild ? undefined : (options.claim ?? this.memoryClaim(placement, uuids, spec));
    // Nova's conductor asks for no alternates on a rebuild (it re-checks the instance's own host).
    const numAlts = options.alternates === false || rebuild ? 0 : this.config.scheduler.max_attempts - 1;
    const placed = await this.placeEach(run, candidates, claim, numAlts);
    if (placed.chosen.length !== uuids.length) {
      return decisionOf(run, {
        error: noValidHost('No valid host was found. There are not enough hosts available.'),
      });
    }
    const ranked = await this.rankForAlternates(run, placed, numAlts);
    return decisionOf(run, { placements: alternates(run, placed, ranked, numAlts) });
  }

  /**
   * Nova's loop over the instances: sort the candidates, claim the first host that takes the claim,
   * consume the instance's resources on it. Later instances work on the previous instance's sorted
   * survivors (with the consumed copy), so the list only shrinks.
   */
  private async placeEach(
    run: Run,
    candidates: Candidates,
    claim: Claim | undefined,
    numAlts: number,
  ): Promise<Placed> {
    const { spec, uuids } = run;
    const plugins: Plugins = { filters: this.filters, weighers: this.weighers };
    const chosen: HostState[] = [];
    let hosts: HostState[] = [];
    // The full ranking of the last instance's survivors, when `hosts` holds only the best few.
    let rest: (() => HostState[]) | null = null;
    for (let index = 0; index < uuids.length; index++) {
      spec.instance_uuid = uuids[index];
      const ctx: EngineContext = { ...run.ctx, index };
      const sort = { random: run.random, spares: numAlts + SPARE_HOSTS, full: uuids.length > 1 };
      const c = index === 0 ? candidates : listCandidates(hosts, run.buffers.positions);
      const sorted: SortedHosts = await sortHosts(
        plugins,
        c,
        spec,
        ctx,
        sort,
        run.buffers.weights,
        run.counts,
        run.record,
      );
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
    return { chosen, hosts, rest };
  }

  /** Nova filters and weighs the survivors again after the last pick of a multi-create. */
  private async rankForAlternates(run: Run, placed: Placed, numAlts: number): Promise<HostState[]> {
    if (run.uuids.length <= 1 || numAlts === 0) return placed.hosts;
    const ctx: EngineContext = { ...run.ctx, index: run.uuids.length - 1 };
    const sort = { random: run.random, spares: numAlts, full: true };
    // Buffers of its own: `placed.rest` may still read the decision's.
    const n = placed.hosts.length;
    const c = listCandidates(placed.hosts, new Int32Array(n));
    const plugins: Plugins = { filters: this.filters, weighers: this.weighers };
    return (await sortHosts(plugins, c, run.spec, ctx, sort, new Float64Array(n), null)).hosts;
  }

  /** Placement's claims in memory: only a multi-create can be refused (its earlier instances count). */
  private memoryClaim(placement: boolean, uuids: readonly string[], spec: RequestSpec): Claim | undefined {
    return placement && uuids.length > 1 ? new PlacementClaims(spec, this.config).claim : undefined;
  }
}

/** What one decision carries from stage to stage. */
interface Run {
  spec: RequestSpec;
  uuids: readonly string[];
  random: () => number;
  counts: FilterCount[];
  record: DecisionRecord | null;
  buffers: DecisionBuffers;
  ctx: EngineContext;
}

interface Placed {
  chosen: HostState[];
  /** The last instance's sorted survivors (the chosen host's consumed copy in its place). */
  hosts: HostState[];
  rest: (() => HostState[]) | null;
}

/**
 * Placement's allocation candidates (Nova's request filters and the resource query): compacts
 * `c` to the hosts that pass, or returns why none can.
 */
function prefilter(run: Run, c: Candidates): ScheduleDecision['error'] {
  const { spec, ctx } = run;
  try {
    const check = prefilterCheck(c.hosts, spec, ctx);
    c.count = check.collect(c.positions);
    c.memberships = check.membershipVerdicts;
    c.blocked = () => check.blocked;
    run.record?.prefiltered(c.hosts, c.positions, c.count, check);
  } catch (err) {
    if (err instanceof NoValidHostError) return noValidHost(err.message);
    throw err;
  }
  run.counts.push({ filter: 'Placement', start: c.hosts.length, end: c.count, instance_index: 0 });
  if (c.count === 0)
    return noValidHost('No valid host was found. Placement returned no allocation candidates.');
  spec.requested_destination = resolvedDestination(spec, c.hosts);
  return null;
}

/** Each instance's placement with its alternates from the final ranking. */
function alternates(run: Run, placed: Placed, ranked: HostState[], numAlts: number) {
  const chosenKeys = new Set(placed.chosen.map(hostKey));
  return placed.chosen.map((host, i) => {
    let alts = alternatesFor(host, ranked, chosenKeys, numAlts);
    // Same-cell hosts may rank below the short list; Nova's list holds every survivor.
    if (alts.length < numAlts && placed.rest) alts = alternatesFor(host, placed.rest(), chosenKeys, numAlts);
    return { instance_uuid: run.uuids[i], host, alternates: alts };
  });
}

/**
 * The decision; its weighed list and eliminations are read from the recording when asked for.
 * After `release()` every such read throws (unexplained too, so a caller's misuse shows in tests
 * whatever they asked for), even of a weighed list built before.
 */
function decisionOf(run: Run, partial: Partial<ScheduleDecision>): ScheduleDecision {
  let record = run.record;
  let released = false;
  const recording = (read: string) => {
    if (released) throw new DecisionReleasedError(read);
    return record;
  };
  let weighed: ScheduleDecision['weighed'] | undefined;
  return {
    request_id: run.spec.request_id,
    placements: [],
    get weighed() {
      const r = recording('weighed');
      weighed ??= r ? r.weighedHosts() : null;
      return weighed;
    },
    filter_counts: run.counts,
    eliminated: (limit?: number) => recording('eliminated()')?.eliminations(limit) ?? [],
    eachElimination: (visit) => recording('eachElimination()')?.eachElimination(visit),
    explainedTop: (limit: number) =>
      recording('explainedTop()')?.top(limit) ?? {
        weighed: [],
        weighedTotal: 0,
        eliminated: [],
        eliminatedTotal: 0,
      },
    weightsByHost: () => recording('weightsByHost()')?.weightsByHost() ?? null,
    rankedWeights: () => recording('rankedWeights()')?.rankedWeights() ?? null,
    release: () => {
      released = true;
      weighed = undefined;
      record?.release();
      record = null;
    },
    error: null,
    ...partial,
  };
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

/** The fleet's candidates in the decision's buffers: every host when `all`, else none yet. */
function fleetCandidates(fleet: Fleet, buffers: DecisionBuffers, all: boolean): Candidates {
  const n = all ? fleet.hosts.length : 0;
  for (let i = 0; i < n; i++) buffers.positions[i] = i;
  return {
    hosts: fleet.hosts,
    index: fleetIndex(fleet.hosts),
    positions: buffers.positions,
    count: n,
    memberships: null,
    blocked: null,
  };
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
