import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import { isRebuild, type RequestSpec } from '../model/requestSpec.js';
import { consumeFromRequest } from './consume.js';
import type { EngineContext } from './context.js';
import { NoValidHostError } from './errors.js';
import type { ScheduleDecision } from './explain.js';
import type { HostFilter } from './filter.js';
import type { FilterCount } from './filterHandler.js';
import { Fleet } from './fleet.js';
import { resolvedDestination } from './narrow.js';
import { PlacementClaims } from './placementClaim.js';
import { HostCheck } from './prefilter/hostCheck.js';
import { seededRandom } from './random.js';
import { type EnabledPlugins, type SortedHosts, sortHosts } from './sortHosts.js';
import { DecisionTrace } from './trace.js';
import type { HostWeigher } from './weigher.js';

/**
 * Claims the request's resources on a host (Placement's PUT /allocations). Returning false makes the
 * scheduler try the next host, as Nova does when a claim races with another scheduler.
 */
export type ClaimHost = (
  host: HostState,
  spec: RequestSpec,
  instanceUuid: string,
) => boolean | Promise<boolean>;

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
  claim?: ClaimHost;
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

  /**
   * One decision, explained or not: the same steps over the same hosts; an explanation only
   * records what each step removed (trace.ts) and builds its words when they are read.
   */
  async schedule(
    hostsOrFleet: readonly HostState[] | Fleet,
    input: RequestSpec,
    options: ScheduleOptions = {},
  ): Promise<ScheduleDecision> {
    const fleet = Fleet.of(hostsOrFleet);
    const uuids = instanceUuids(input);
    const spec = requestCopy(input, uuids);
    const run: Run = {
      spec,
      uuids,
      random: options.random ?? this.random,
      counts: [],
      trace: options.explain || options.weights ? new DecisionTrace(options.explain ?? false) : null,
      ctx: { config: this.config, now: options.now ?? new Date(), index: 0, fleet },
    };
    // A rebuild only re-checks the current host: no Placement query and no claim (Nova's legacy path).
    const rebuild = isRebuild(spec);
    const placement = !rebuild && this.config.placid.placement_prefilter;
    let candidates = fleet.hosts;
    if (placement) {
      const prefiltered = prefilter(run, fleet);
      if ('error' in prefiltered) return decisionOf(run, prefiltered);
      candidates = prefiltered.hosts;
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
    candidates: readonly HostState[],
    claim: ClaimHost | undefined,
    numAlts: number,
  ): Promise<Placed> {
    const { spec, uuids } = run;
    const plugins: EnabledPlugins = { filters: this.filters, weighers: this.weighers };
    const chosen: HostState[] = [];
    let hosts: HostState[] = [];
    // The full ranking of the last instance's survivors, when `hosts` holds only the best few.
    let rest: (() => HostState[]) | null = null;
    for (let index = 0; index < uuids.length; index++) {
      spec.instance_uuid = uuids[index];
      const ctx: EngineContext = { ...run.ctx, index };
      const sort = { random: run.random, spares: numAlts + SPARE_HOSTS, full: uuids.length > 1 };
      const c = index === 0 ? candidates : hosts;
      const sorted: SortedHosts = await sortHosts(plugins, c, spec, ctx, sort, run.counts, run.trace);
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
    const plugins: EnabledPlugins = { filters: this.filters, weighers: this.weighers };
    return (await sortHosts(plugins, placed.hosts, run.spec, ctx, sort, null)).hosts;
  }

  /** Placement's claims in memory: only a multi-create can be refused (its earlier instances count). */
  private memoryClaim(
    placement: boolean,
    uuids: readonly string[],
    spec: RequestSpec,
  ): ClaimHost | undefined {
    return placement && uuids.length > 1 ? new PlacementClaims(spec, this.config).claim : undefined;
  }
}

/** What one decision carries from stage to stage. */
interface Run {
  spec: RequestSpec;
  uuids: readonly string[];
  random: () => number;
  counts: FilterCount[];
  trace: DecisionTrace | null;
  ctx: EngineContext;
}

interface Placed {
  chosen: HostState[];
  /** The last instance's sorted survivors (the chosen host's consumed copy in its place). */
  hosts: HostState[];
  rest: (() => HostState[]) | null;
}

/**
 * Placement's allocation candidates (Nova's request filters and the resource query): the hosts that
 * pass, or why none can.
 */
function prefilter(run: Run, fleet: Fleet): { hosts: HostState[] } | Pick<ScheduleDecision, 'error'> {
  const { spec, ctx } = run;
  let hosts: HostState[];
  try {
    const check = new HostCheck(spec, ctx, fleet);
    hosts = check.candidates();
    run.trace?.prefiltered(fleet.hosts, check);
  } catch (err) {
    if (err instanceof NoValidHostError) return { error: noValidHost(err.message) };
    throw err;
  }
  run.counts.push({ filter: 'Placement', start: fleet.hosts.length, end: hosts.length, instance_index: 0 });
  if (hosts.length === 0)
    return { error: noValidHost('No valid host was found. Placement returned no allocation candidates.') };
  spec.requested_destination = resolvedDestination(spec, fleet);
  return { hosts };
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

/** The decision; its weighed list and eliminations are built from its trace when read. */
function decisionOf(run: Run, partial: Partial<ScheduleDecision>): ScheduleDecision {
  const trace = run.trace;
  let weighed: ScheduleDecision['weighed'] | undefined;
  return {
    request_id: run.spec.request_id,
    placements: [],
    get weighed() {
      weighed ??= trace ? trace.weighedHosts() : null;
      return weighed;
    },
    filter_counts: run.counts,
    eliminated: (limit?: number) => trace?.eliminations(limit) ?? [],
    explainedTop: (limit: number) =>
      trace?.top(limit) ?? { weighed: [], weighedTotal: 0, eliminated: [], eliminatedTotal: 0 },
    weightsByHost: () => trace?.weightsByHost() ?? null,
    rankedWeights: () => trace?.rankedWeights() ?? null,
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
  claim?: ClaimHost,
): Promise<number> {
  if (!claim) return hosts.length > from ? from : -1;
  for (let i = from; i < hosts.length; i++) if (await claim(hosts[i], spec, uuid)) return i;
  return -1;
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
