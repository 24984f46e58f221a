import type { SchedulerConfig } from '../../config/options.js';
import type { Aggregate, HostState } from '../../model/hostState.js';
import { PluginError } from '../errors.js';
import {
  BY_AGGREGATES,
  buildGroups,
  type HostGrouping,
  type HostGroups,
  type HostSubset,
} from '../hostGroups.js';
import { OnDemandRows } from '../onDemandRows.js';
import { FACT_WIDTH, writeFactRow } from '../weighers/factRows.js';
import { FitLimitTable } from './fitLimits.js';
import { sameGroup, sameMemberships, sameNames, sameZonePresence, traitKey } from './indexCarry.js';
import type { ResourceFit } from './resources.js';

/** Placement identifies aggregates by uuid; Placid falls back to the name when an aggregate has none. */
export function aggregateId(a: Aggregate): string {
  return a.uuid ?? a.name;
}

export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';

interface AggregateIndex {
  /** Host position → index of its (shared) aggregates array in `groups`. */
  groupOf: Int32Array;
  groups: readonly (readonly Aggregate[])[];
  /** Per group: its first host position, and how many hosts it has. */
  first: Int32Array;
  sizes: Int32Array;
  /** Every distinct aggregate of the fleet (by id): what Nova's aggregate DB queries would see. */
  aggregates: readonly Aggregate[];
}

interface TraitIndex {
  /** Host position → index of its trait set in `groups` (hosts with the same traits share one). */
  groupOf: Int32Array;
  groups: readonly ReadonlySet<string>[];
  /** Per trait group: 1 when the host itself reports COMPUTE_STATUS_DISABLED. */
  disabled: Uint8Array;
  anyDisabled: boolean;
}

interface NameIndex {
  /** Lower-cased host name → host positions (Nova's compute-node lookup is case-insensitive on host). */
  byHost: ReadonlyMap<string, number[]>;
  byNode: ReadonlyMap<string, number[]>;
}

/**
 * Per-fleet facts the pre-filter needs on every request, built lazily once per hosts array and then
 * reused: resource fields as typed arrays, and aggregate and trait rules evaluated once per distinct
 * membership / trait set. Hosts are treated as immutable, like the Fleet snapshot they come from
 * (consumption works on copies): nothing indexed is re-read from the host objects.
 */
export class FleetIndex {
  private aggIndex: AggregateIndex | null = null;
  private traitIndex: TraitIndex | null = null;
  private nameIndex: NameIndex | null = null;
  private zoneField: boolean | null = null;
  private aggregateGroups: HostGroups | undefined;
  /**
   * Filter name → grouping id → groups (null: asked for once, for some candidates only): ids are
   * the filter's own, so they cannot collide.
   */
  private readonly groupings = new Map<
    string,
    Map<string, { grouping: HostGrouping; groups: HostGroups | null }>
  >();
  private limits: { key: string; table: FitLimitTable } | null = null;
  /** openMemberships' answers, for the last `blocked` array asked with. */
  private readonly openLists = new WeakMap<
    HostGroups,
    { blocked: Uint8Array | null; lists: GroupMemberships }
  >();
  /** passingMembers' answers, most recently used first. */
  private readonly members: MemberList[] = [];
  private factCache: FactCache | null = null;

  /** How many hosts were indexed (the array is expected not to change). */
  readonly size: number;

  constructor(readonly hosts: readonly HostState[]) {
    this.size = hosts.length;
  }

  /**
   * The index of `hosts`: this index's hosts with the ones at `stale` positions replaced, every
   * other position the very same object. What this index has built is taken over: shared where it
   * is never written again and no replaced host changes it, copied where it is written on demand
   * (fit limits, fact rows: this index may still serve a decision in flight; fact rows that no
   * unreleased recording reads are handed over instead, see lendFactRows), with the replaced
   * positions written again when asked for; anything a replaced host changes is left to be built
   * afresh. The new index answers as this one would for these hosts, so as a fresh index does once
   * asked before (groupings and tables asked for once are built whole from then on).
   * openMemberships' answers are not carried: they are kept by the fit limits' blocked array.
   */
  carriedTo(hosts: readonly HostState[], stale: readonly number[]): FleetIndex {
    const next = new FleetIndex(hosts);
    const before = this.hosts;
    const unchanged = (same: (a: HostState, b: HostState) => boolean) =>
      stale.every((i) => same(before[i], hosts[i]));
    if (this.aggIndex !== null && unchanged(sameMemberships)) {
      next.aggIndex = this.aggIndex;
      next.traitIndex = this.traitIndex;
      next.aggregateGroups = this.aggregateGroups;
      // Member lists depend on the membership groups alone.
      next.members.push(...this.members);
    }
    if (this.nameIndex !== null && unchanged(sameNames)) next.nameIndex = this.nameIndex;
    if (this.zoneField !== null && unchanged(sameZonePresence)) next.zoneField = this.zoneField;
    for (const [owner, mine] of this.groupings) {
      const carried = new Map<string, { grouping: HostGrouping; groups: HostGroups | null }>();
      for (const [id, entry] of mine) {
        const keep = entry.groups === null || unchanged((a, b) => sameGroup(entry.grouping, a, b));
        carried.set(id, keep ? entry : { grouping: entry.grouping, groups: null });
      }
      next.groupings.set(owner, carried);
    }
    if (this.limits !== null)
      next.limits = { key: this.limits.key, table: this.limits.table.carriedTo(hosts, stale) };
    const facts = this.factCache;
    if (facts?.rows) {
      // Rows no recording reads are handed over, not copied (this index starts its own if asked again).
      const handOver = facts.lent === 0;
      next.factCache = factCache(hosts, facts.config, { cache: facts, rows: facts.rows, stale, handOver });
      if (handOver) this.factCache = null;
    }
    return next;
  }

  get aggregates(): AggregateIndex {
    if (this.aggIndex === null) this.indexMemberships();
    return this.aggIndex!;
  }

  get traits(): TraitIndex {
    if (this.traitIndex === null) this.indexMemberships();
    return this.traitIndex!;
  }

  /**
   * The aggregate and trait indexes in one pass over the hosts: every pre-filtered decision reads
   * both, and each host object is then fetched once.
   */
  private indexMemberships(): void {
    const aggregates = new AggregateGrouping(this.size);
    const traits = new TraitGrouping(this.size);
    const hosts = this.hosts;
    for (let i = 0; i < hosts.length; i++) {
      const h = hosts[i];
      aggregates.add(i, h.aggregates);
      traits.add(i, h.traits);
    }
    this.aggIndex = aggregates.index();
    this.traitIndex = traits.index();
  }

  /** True when some host reports its own `availability_zone` (not only through aggregates). */
  get hostsReportZones(): boolean {
    this.zoneField ??= this.hosts.some((h) => h.availability_zone != null);
    return this.zoneField;
  }

  get names(): NameIndex {
    this.nameIndex ??= buildNameIndex(this.hosts);
    return this.nameIndex;
  }

  /**
   * Each host's largest fitting amounts under `fit`'s config (fitLimits.ts), written as hosts are
   * asked for; afresh when the config changes.
   */
  fitLimits(fit: ResourceFit): FitLimitTable {
    const key = fit.key;
    if (this.limits?.key !== key) this.limits = { key, table: new FitLimitTable(this.hosts, fit) };
    return this.limits.table;
  }

  /**
   * The ascending positions of the hosts whose aggregate membership group (aggregates.groupOf) has
   * the verdict -1 (passes) in `verdicts`. Kept for the last few sets of passing groups: requests
   * for one availability zone pass the same groups, and a list of the members is a third of the
   * fleet's reads where most hosts are in other zones.
   */
  passingMembers(verdicts: Int16Array): Int32Array {
    const lists = this.members;
    let k = 0;
    while (k < lists.length && !samePassing(lists[k].pass, verdicts)) k++;
    const found = k < lists.length ? lists.splice(k, 1)[0] : null;
    const entry = found ?? {
      pass: Uint8Array.from(verdicts, (v) => (v === -1 ? 1 : 0)),
      members: passing(this.aggregates, verdicts),
    };
    lists.unshift(entry);
    if (lists.length > MEMBER_LISTS) lists.pop();
    return entry.members;
  }

  /**
   * For each group of `groups`, the aggregate membership groups (aggregates.groupOf) of its hosts
   * that are not `blocked` (fitLimits: a disabled or not-ready host is never a candidate), so a
   * grouped filter can tell which of its groups the pre-filter's candidates can be in without
   * reading the candidates.
   */
  openMemberships(groups: HostGroups, blocked: Uint8Array | null): GroupMemberships {
    const cached = this.openLists.get(groups);
    if (cached && cached.blocked === blocked) return cached.lists;
    const lists = groupMemberships(this.aggregates.groupOf, groups, blocked);
    this.openLists.set(groups, { blocked, lists });
    return lists;
  }

  /**
   * The hosts numbered by `grouping` (see hostGroups.ts) for the filter named `owner`, cached by
   * the owner and the id. Ids are scoped per filter, so a plug-in's id can never read a built-in's
   * groups; one filter giving one id two sets of keys is refused. The first time a grouping is
   * asked for with `candidates`, only those are numbered (partial, not kept): a fleet indexed for
   * one decision never reads the rest. From the second time on, the whole fleet is, once.
   */
  groups(grouping: HostGrouping, owner = '', candidates: HostSubset | null = null): HostGroups {
    // The engine's own grouping object: one set of groups whoever asks.
    if (grouping === BY_AGGREGATES) {
      const { groupOf, first } = this.aggregates;
      this.aggregateGroups ??= { groupOf, size: first.length, first, partial: false };
      return this.aggregateGroups;
    }
    let mine = this.groupings.get(owner);
    if (mine === undefined) {
      mine = new Map();
      this.groupings.set(owner, mine);
    }
    const cached = mine.get(grouping.id);
    if (cached) {
      if (cached.grouping !== grouping && !sameKeys(cached.grouping, grouping))
        throw new PluginError(
          owner || `grouping '${grouping.id}'`,
          `groupedBy returned two groupings with different keys under the id '${grouping.id}'; give each its own id`,
        );
      if (cached.groups) return cached.groups;
    } else if (candidates !== null) {
      mine.set(grouping.id, { grouping, groups: null });
      return buildGroups(this.hosts, grouping, candidates);
    }
    const groups = buildGroups(this.hosts, grouping);
    mine.set(grouping.id, { grouping, groups });
    return groups;
  }

  /**
   * Notes that a decision's recording reads `rows`, this index's fact rows, until it calls the
   * returned function (on its release): rows no recording holds are handed over to a carried index
   * (carriedTo) instead of copied, so their pages are reused. Weighing itself reads them only while
   * it runs (it is synchronous), so only recordings borrow them.
   */
  lendFactRows(rows: Float64Array): () => void {
    const c = this.factCache;
    if (c === null || c.rows !== rows) return () => {};
    c.lent++;
    let lent = true;
    return () => {
      if (lent) c.lent--;
      lent = false;
    };
  }

  /**
   * The weigher facts in rows (factRows.ts) of at least the hosts at `candidates`' positions, so
   * the weighers read a survivor's facts from one cache line instead of its host object. The first
   * call writes the candidates' rows (a decision over a large fleet weighs a few of them), a later
   * one every host's, kept. Free vCPUs depend on the configured CPU ratios, so the rows start
   * afresh when those change. Null once some host's facts cannot be read (the weighers then meet
   * that host themselves and name it in their error).
   */
  factRows(config: SchedulerConfig, candidates: HostSubset): Float64Array | null {
    const d = config.DEFAULT;
    const cpuOverride = d.cpu_allocation_ratio;
    const initialCpu = d.initial_cpu_allocation_ratio;
    let c = this.factCache;
    if (!c || !Object.is(c.cpuOverride, cpuOverride) || !Object.is(c.initialCpu, initialCpu)) {
      c = factCache(this.hosts, config, null);
      this.factCache = c;
    }
    if (c.rows !== null && !c.written.complete) {
      try {
        // Every host a candidate (a multi-create's later instances): no need to look at positions.
        if (c.asked || candidates.count === this.size) c.written.all();
        else c.written.some(candidates.positions, candidates.count);
      } catch {
        c.rows = null;
      }
      c.asked = true;
    }
    return c.rows;
  }
}

/** Fact rows under one CPU-ratio config (rows and `written` are the config's first caller's). */
interface FactCache {
  config: SchedulerConfig;
  cpuOverride: number | null;
  initialCpu: number;
  /** Null once a host's facts could not be read. */
  rows: Float64Array | null;
  written: OnDemandRows;
  /** Rows were asked for before: the next call writes every host's. */
  asked: boolean;
  /** Recordings reading the rows (lendFactRows). */
  lent: number;
}

/**
 * Fact rows of `hosts` under `config`'s CPU ratios: empty, or (`from`, rows of the same hosts but
 * those at `stale` positions) what `from` wrote, copied or (`handOver`) the very rows, the stale
 * rows written again when asked for.
 */
function factCache(
  hosts: readonly HostState[],
  config: SchedulerConfig,
  from: { cache: FactCache; rows: Float64Array; stale: readonly number[]; handOver: boolean } | null,
): FactCache {
  const d = config.DEFAULT;
  const rows =
    from === null
      ? new Float64Array(hosts.length * FACT_WIDTH)
      : from.handOver
        ? from.rows
        : from.rows.slice();
  const write = (i: number) => writeFactRow(rows, i, hosts[i], config);
  const written =
    from === null ? new OnDemandRows(hosts.length, write) : from.cache.written.copyFor(write, from.stale);
  const asked = from?.cache.asked ?? false;
  return {
    config,
    cpuOverride: d.cpu_allocation_ratio,
    initialCpu: d.initial_cpu_allocation_ratio,
    rows,
    written,
    asked,
    lent: 0,
  };
}

/** Group g's memberships: memberships[offsets[g]..offsets[g + 1]). */
export interface GroupMemberships {
  offsets: Int32Array;
  memberships: Int32Array;
}

function groupMemberships(
  membershipOf: Int32Array,
  groups: HostGroups,
  blocked: Uint8Array | null,
): GroupMemberships {
  const sets = Array.from({ length: groups.size }, () => new Set<number>());
  for (let i = 0; i < membershipOf.length; i++) {
    if (blocked === null || blocked[i] === 0) sets[groups.groupOf[i]].add(membershipOf[i]);
  }
  const offsets = new Int32Array(groups.size + 1);
  for (let g = 0; g < sets.length; g++) offsets[g + 1] = offsets[g] + sets[g].size;
  const memberships = new Int32Array(offsets[groups.size]);
  for (let g = 0; g < sets.length; g++) memberships.set([...sets[g]], offsets[g]);
  return { offsets, memberships };
}

/** Member lists kept per fleet (at 100k hosts a list is up to 400 KB). */
const MEMBER_LISTS = 8;

interface MemberList {
  /** Per membership group, 1 when it passed. */
  pass: Uint8Array;
  members: Int32Array;
}

/** Compares pass bits, not keys: a fleet may have thousands of membership groups. */
function samePassing(pass: Uint8Array, verdicts: Int16Array): boolean {
  for (let g = 0; g < verdicts.length; g++) if ((verdicts[g] === -1 ? 1 : 0) !== pass[g]) return false;
  return true;
}

function passing(index: AggregateIndex, verdicts: Int16Array): Int32Array {
  const { groupOf, sizes } = index;
  let n = 0;
  for (let g = 0; g < verdicts.length; g++) if (verdicts[g] === -1) n += sizes[g];
  const list = new Int32Array(n);
  n = 0;
  for (let i = 0; i < groupOf.length; i++) if (verdicts[groupOf[i]] === -1) list[n++] = i;
  return list;
}

/** Same key functions: the same objects, or (a grouping rebuilt per request) the same code. */
function sameKeys(a: HostGrouping, b: HostGrouping): boolean {
  return (
    a.keys.length === b.keys.length &&
    a.keys.every((k, i) => k === b.keys[i] || String(k) === String(b.keys[i]))
  );
}

const cache = new WeakMap<readonly HostState[], FleetIndex>();

/** The index of `hosts`, cached by array identity (the scheduler passes the Fleet's own array). */
export function fleetIndex(hosts: readonly HostState[]): FleetIndex {
  let index = cache.get(hosts);
  // A length change means the array was edited in place: index it afresh rather than misread it.
  if (!index || index.size !== hosts.length) {
    index = new FleetIndex(hosts);
    cache.set(hosts, index);
  }
  return index;
}

/**
 * Indexes `hosts` from the index of `previous` when `hosts` is `previous` with some hosts replaced
 * (same length; the replaced positions are found by identity), as a snapshot refresh makes it:
 * the previous index is carried over (FleetIndex.carriedTo) instead of every host being indexed
 * again on the next decision. Nothing happens when `previous` was never indexed.
 */
export function carryFleetIndex(previous: readonly HostState[], hosts: readonly HostState[]): void {
  const old = cache.get(previous);
  if (!old || old.size !== previous.length || hosts.length !== previous.length || cache.has(hosts)) return;
  const stale: number[] = [];
  for (let i = 0; i < hosts.length; i++) if (hosts[i] !== previous[i]) stale.push(i);
  cache.set(hosts, old.carriedTo(hosts, stale));
}

/** Numbers hosts by their (shared) aggregates array, host by host. */
class AggregateGrouping {
  private readonly groupOf: Int32Array;
  private readonly ids = new Map<readonly Aggregate[], number>();
  private readonly groups: (readonly Aggregate[])[] = [];
  private readonly first: number[] = [];
  private readonly sizes: number[] = [];
  private readonly byId = new Map<string, Aggregate>();

  constructor(size: number) {
    this.groupOf = new Int32Array(size);
  }

  add(i: number, aggs: readonly Aggregate[]): void {
    let g = this.ids.get(aggs);
    if (g === undefined) {
      g = this.groups.length;
      this.ids.set(aggs, g);
      this.groups.push(aggs);
      this.first.push(i);
      this.sizes.push(0);
      for (const a of aggs) if (!this.byId.has(aggregateId(a))) this.byId.set(aggregateId(a), a);
    }
    this.sizes[g]++;
    this.groupOf[i] = g;
  }

  index(): AggregateIndex {
    return {
      groupOf: this.groupOf,
      groups: this.groups,
      first: Int32Array.from(this.first),
      sizes: Int32Array.from(this.sizes),
      aggregates: [...this.byId.values()],
    };
  }
}

/** Numbers hosts by their trait set, host by host. */
class TraitGrouping {
  private readonly groupOf: Int32Array;
  private readonly ids = new Map<string, number>();
  private readonly groups: ReadonlySet<string>[] = [];
  private readonly disabled: number[] = [];

  constructor(size: number) {
    this.groupOf = new Int32Array(size);
  }

  add(i: number, traits: readonly string[]): void {
    const key = traitKey(traits);
    let g = this.ids.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.ids.set(key, g);
      const set = new Set(traits);
      this.groups.push(set);
      this.disabled.push(set.has(DISABLED_TRAIT) ? 1 : 0);
    }
    this.groupOf[i] = g;
  }

  index(): TraitIndex {
    const disabled = Uint8Array.from(this.disabled);
    return { groupOf: this.groupOf, groups: this.groups, disabled, anyDisabled: disabled.includes(1) };
  }
}

function buildNameIndex(hosts: readonly HostState[]): NameIndex {
  const byHost = new Map<string, number[]>();
  const byNode = new Map<string, number[]>();
  hosts.forEach((h, i) => {
    push(byHost, h.host.toLowerCase(), i);
    push(byNode, h.nodename, i);
  });
  return { byHost, byNode };
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}
