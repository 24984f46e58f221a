/**
 * Host states of the common shape, validated by hand in one pass, without zod.
 *
 * Why: zod walks every field of every host with closures and copies; at 20k hosts that was most of
 * `placid schedule`, and loading zod alone costs a CLI start about as much as Node itself.
 *
 * The contract: `fastHostState(x)` returns exactly what `toHostState(hostStateInput.parse(x))`
 * returns, or undefined. Undefined means "not plainly valid in the common shape" (a field this path
 * does not read, such as NUMA, PCI, metrics or inventories, or any value zod could refuse), and then
 * zod decides and words the problem, so error messages cannot drift. The ranges come from the one
 * bounds table and the id rules from identifierRules.ts; a property test holds the two paths equal
 * (test/model/hostFastPath.test.ts).
 */
import { BOUNDS, type Bound } from './boundsTable.js';
import {
  isBoolean,
  isEmptyRecord,
  isId,
  isName,
  isPlainObject,
  isRatio,
  isString,
  knownKeys,
  MISS,
  type Miss,
  novaStrings,
  nullish,
  optional,
  recordKeys,
  validNames,
  validNovaStrings,
  within,
} from './fastChecks.js';
import { checkDistinctHosts, statCount } from './hostDefaults.js';
import {
  type Aggregate,
  ASSUMED_SERVICE,
  HOST_STATE_FIELDS,
  type HostState,
  type InstanceOnHost,
  NO_LIMITS,
  type ServiceState,
} from './hostState.js';
import { eachArrayObject, type ReadInto } from './jsonArrayObjects.js';

/**
 * Every host of a parsed JSON array through the fast path, checked for duplicates (the same
 * ValidationError parseHostStates raises); undefined when the input is not an array or any host
 * needs zod. The in-memory form of fastHostStatesOfStream, which its tests hold it equal to.
 */
export function fastHostStates(input: unknown, source: string): HostState[] | undefined {
  if (!Array.isArray(input)) return undefined;
  return laidOutHosts((take) => {
    for (let i = 0; i < input.length; i++) if (!take(input[i])) return false;
    return true;
  }, source);
}

/**
 * fastHostStates of a JSON array read from a byte stream, a batch of hosts parsed and checked at a
 * time (see jsonArrayObjects.ts: the raw hosts then die young instead of being copied beside their
 * host states). Undefined when the stream is not a plain array of objects or any host needs zod:
 * the caller then parses the whole file, which also words a JSON error.
 */
export function fastHostStatesOfStream(read: ReadInto, source: string): HostState[] | undefined {
  return laidOutHosts((take) => eachArrayObject(read, take), source);
}

/**
 * The hosts `each` hands to `take`, through the fast path with one layout, checked for duplicates
 * and marked laid out; undefined when `each` stops (a host needs zod, or the input is not a plain
 * array of objects).
 */
function laidOutHosts(
  each: (take: (raw: unknown) => boolean) => boolean,
  source: string,
): HostState[] | undefined {
  const layout = new HostLayout();
  const states: HostState[] = [];
  const taken = each((raw) => {
    const state = hostOf(raw, layout);
    if (state === undefined) return false;
    states.push(state);
    return true;
  });
  if (!taken) return undefined;
  checkDistinctHosts(states, source);
  markLaidOut(states);
  return states;
}

/**
 * What zod and toHostState make of `x`, or undefined when zod must decide (see the file comment).
 * Hosts parsed with one `layout` share their equal aggregate lists, services, supported-instance
 * lists and traits, as the engine's Fleet would lay them out.
 */
export function fastHostState(x: unknown, layout = new HostLayout()): HostState | undefined {
  return hostOf(x, layout);
}

/** Equal sub-values of the hosts of one parse, shared. */
export class HostLayout {
  readonly aggregates = new SharedValues<Aggregate[]>();
  readonly services = new SharedValues<ServiceState>();
  readonly supported = new SharedValues<[string, string, string][]>();
  readonly traits = new SharedValues<string[]>();
}

/** Lists of hosts the fast path made: one object shape, repeated sub-values shared. */
const laidOut = new WeakSet<readonly HostState[]>();

/** Records that every host of `hosts` came from the fast path with one layout (parseHostStates). */
export function markLaidOut(hosts: readonly HostState[]): void {
  laidOut.add(hosts);
}

/**
 * True for a list of host states the fast path made: the engine's Fleet can take its hosts as they
 * are instead of copying each into its own layout. (One mark per list: a mark per host cost more
 * than the copy it saves. A list changed afterwards is still taken as it is; a host put in it
 * from elsewhere then only misses the sharing.)
 */
export function isLaidOut(hosts: readonly HostState[]): boolean {
  return laidOut.has(hosts);
}

/**
 * Fields of the schema this path reads; anything else it passes through as zod's looseObject does
 * (a test holds this list equal to the schema's keys, so a new schema field cannot slip through).
 */
export const FAST_PATH_FIELDS: ReadonlySet<string> = new Set(
  [...HOST_STATE_FIELDS].filter((field) => field !== 'extra' && field !== 'limits'),
);

/**
 * One host in one pass: the checks, then the finished host state (toHostState's fields, in its
 * order). No intermediate zod-shaped object: at 20k hosts a second object per host was a fifth of
 * the parse, most of it garbage collection. Checks and building are separate functions, each
 * small enough for V8 to optimize on its own: as one function it took 25–40 ms of compiler time,
 * twice per run (the host objects' allocation site is re-tuned once they survive, which throws the
 * code away), while the loop ran unoptimized. Likewise no check is inlined into more than one
 * caller: each inlined copy is compiled again, and V8's compiler threads, not the checks, were most
 * of the validation's CPU.
 */
function hostOf(x: unknown, layout: HostLayout): HostState | undefined {
  if (!isPlainObject(x)) return undefined;
  const h = x as Record<string, unknown>;
  const extras = checkedKeys(h);
  if (extras === MISS) return undefined;
  // Shared sub-values are checked when first seen only: a later one equal to it is as valid.
  const aggregates =
    h.aggregates === undefined
      ? NO_AGGREGATES
      : layout.aggregates.get(h.aggregates, validAggregates, buildAggregates);
  const service =
    h.service === undefined ? ASSUMED_SERVICE : layout.services.get(h.service, validService, buildService);
  const supported_instances =
    h.supported_instances === undefined
      ? NO_SUPPORTED
      : layout.supported.get(h.supported_instances, validSupported, buildSupported);
  const traits = h.traits === undefined ? NO_TRAITS : layout.traits.get(h.traits, validNames, copyNames);
  if (aggregates === MISS || service === MISS || supported_instances === MISS || traits === MISS)
    return undefined;
  const instances = h.instances === undefined ? NO_RECORDS : instancesOf(h.instances);
  const stats = h.stats === undefined ? NO_RECORDS : novaStrings(h.stats);
  if (instances === MISS || stats === MISS) return undefined;
  return buildHost(h, extras, { aggregates, service, supported_instances, traits, instances, stats });
}

/**
 * One pass over the host's keys: every scalar field checked as zod would (ids, names, strings,
 * numbers in range), the nested ones left to their own checks, and the keys zod's looseObject
 * would pass through collected (undefined when none). MISS when zod must decide. One loop with a
 * switch reads only the fields a host has, and compiles as one small function.
 */
function checkedKeys(h: Record<string, unknown>): string[] | undefined | Miss {
  let extras: string[] | undefined;
  for (const key in h) {
    const v = h[key];
    if (v === undefined) return MISS;
    switch (key) {
      case 'host':
      case 'nodename':
      case 'uuid':
        if (!isId(v)) return MISS;
        break;
      case 'numa_topology':
      case 'pci_stats':
        if (v !== null) return MISS;
        break;
      case 'cell_uuid':
      case 'hypervisor_hostname':
      case 'availability_zone':
        if (v !== null && !isName(v)) return MISS;
        break;
      case 'metrics':
        if (!Array.isArray(v) || v.length !== 0) return MISS;
        break;
      case 'hypervisor_type':
      case 'host_ip':
      case 'cpu_info':
        if (v !== null && typeof v !== 'string') return MISS;
        break;
      case 'inventories':
        if (!isEmptyRecord(v)) return MISS;
        break;
      case 'hypervisor_version':
        if (v !== null && !within(v, BOUNDS.hypervisor_version)) return MISS;
        break;
      // Ratios may be null (Nova then reads its configured default), never zero.
      case 'cpu_allocation_ratio':
      case 'ram_allocation_ratio':
      case 'disk_allocation_ratio':
        if (v === null) break;
        if (!isRatio(v)) return MISS;
        break;
      case 'aggregates':
      case 'instances':
      case 'service':
      case 'supported_instances':
      case 'stats':
      case 'traits':
        break;
      default: {
        const bound = NUMBER_BOUNDS.get(key);
        if (bound !== undefined) {
          if (!within(v, bound)) return MISS;
        } else if (FAST_PATH_FIELDS.has(key) || key === '__proto__' || key === 'constructor') {
          // A schema field no case above reads, or a key the prototype treats specially.
          return MISS;
        } else if (extras === undefined) extras = [key];
        else extras.push(key);
      }
    }
  }
  // The one field every host has.
  return h.host === undefined ? MISS : extras;
}

/** The bounded numbers: `bounded(name).optional()`, and `.default(0)` when absent. */
const NUMBER_BOUNDS: ReadonlyMap<string, Bound> = new Map([
  ['free_ram_mb', BOUNDS.free_ram_mb],
  ['total_usable_ram_mb', BOUNDS.ram_mb],
  ['free_disk_mb', BOUNDS.free_disk_mb],
  ['total_usable_disk_gb', BOUNDS.disk_gb],
  ['disk_mb_used', BOUNDS.disk_mb],
  ['vcpus_total', BOUNDS.vcpus],
  ['vcpus_used', BOUNDS.vcpus],
  ['failed_builds', BOUNDS.failed_builds],
  ['num_instances', BOUNDS.host_instances],
  ['num_io_ops', BOUNDS.io_ops],
]);

interface HostParts {
  aggregates: Aggregate[];
  service: ServiceState;
  supported_instances: [string, string, string][];
  traits: string[];
  instances: Record<string, InstanceOnHost>;
  stats: Record<string, string>;
}

/** The host state of a host `checkedKeys` passed: toHostState's defaults, field for field. */
function buildHost(h: Record<string, unknown>, extras: string[] | undefined, parts: HostParts): HostState {
  const { instances, stats } = parts;
  const extra = extras === undefined ? NO_RECORDS : extraOf(h, extras);
  const host = h.host as string;
  const nodename = (h.nodename as string | undefined) ?? host;
  // completeHostState in hostDefaults.ts; the bounded numbers default to 0.
  return {
    host,
    nodename,
    uuid: (h.uuid as string | undefined) ?? `${host}:${nodename}`,
    cell_uuid: (h.cell_uuid as string | null | undefined) ?? null,
    free_ram_mb: (h.free_ram_mb as number | undefined) ?? 0,
    total_usable_ram_mb: (h.total_usable_ram_mb as number | undefined) ?? 0,
    free_disk_mb: (h.free_disk_mb as number | undefined) ?? 0,
    total_usable_disk_gb: (h.total_usable_disk_gb as number | undefined) ?? 0,
    disk_mb_used: (h.disk_mb_used as number | undefined) ?? 0,
    vcpus_total: (h.vcpus_total as number | undefined) ?? 0,
    vcpus_used: (h.vcpus_used as number | undefined) ?? 0,
    cpu_allocation_ratio: (h.cpu_allocation_ratio as number | null | undefined) ?? null,
    ram_allocation_ratio: (h.ram_allocation_ratio as number | null | undefined) ?? null,
    disk_allocation_ratio: (h.disk_allocation_ratio as number | null | undefined) ?? null,
    aggregates: parts.aggregates,
    instances,
    num_instances:
      (h.num_instances as number | undefined) ??
      statCount(stats.num_instances, BOUNDS.host_instances.max) ??
      Object.keys(instances).length,
    num_io_ops: (h.num_io_ops as number | undefined) ?? statCount(stats.io_workload, BOUNDS.io_ops.max) ?? 0,
    failed_builds: (h.failed_builds as number | undefined) ?? 0,
    metrics: NO_METRICS,
    service: parts.service,
    hypervisor_type: (h.hypervisor_type as string | null | undefined) ?? null,
    hypervisor_version: (h.hypervisor_version as number | null | undefined) ?? null,
    hypervisor_hostname: (h.hypervisor_hostname as string | null | undefined) ?? null,
    supported_instances: parts.supported_instances,
    cpu_info: (h.cpu_info as string | null | undefined) ?? null,
    host_ip: (h.host_ip as string | null | undefined) ?? null,
    stats,
    numa_topology: null,
    pci_stats: null,
    availability_zone: (h.availability_zone as string | null | undefined) ?? null,
    traits: parts.traits,
    inventories: NO_RECORDS,
    extra,
    limits: NO_LIMITS,
  };
}

/** The keys of `extras` that HostState does not know (`extra` and `limits` are its own). */
function extraOf(h: Record<string, unknown>, extras: string[]): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of extras) if (!HOST_STATE_FIELDS.has(key)) extra[key] = h[key];
  return extra;
}

/**
 * Values built from raw JSON, shared between equal raw values: the hosts of a fleet repeat a few
 * aggregate lists, services and instance types. Compared by structure against the first few kinds
 * seen (most fleets have a handful), by JSON text beyond that; JSON.stringify per host was a
 * fifth of the parse.
 */
class SharedValues<T> {
  private readonly seen: Seen[] = [];
  private readonly values: T[] = [];
  private byText: Map<string, T> | undefined;

  /**
   * The value for `raw`, built once per distinct raw value; MISS when `valid` refuses it. A raw
   * value equal to one seen before is that one's value without a second check.
   */
  get(raw: unknown, valid: (raw: unknown) => boolean, build: (raw: unknown) => T): T | Miss {
    const i = indexIn(raw, this.seen);
    if (i >= 0) return this.values[i];
    // JSON text cannot tell an absent key from an undefined one: checked every time on this path.
    if (!valid(raw)) return MISS;
    if (this.seen.length < RECENT) {
      const value = build(raw);
      this.seen.push(seenForm(raw));
      this.values.push(value);
      return value;
    }
    this.byText ??= new Map();
    const text = JSON.stringify(raw);
    let value = this.byText.get(text);
    if (value === undefined) {
      value = build(raw);
      this.byText.set(text, value);
    }
    return value;
  }
}

/** Distinct values compared by structure before falling back to JSON text. */
const RECENT = 8;

/**
 * A JSON value kept for comparison: a scalar as it is, an array as its items, an object as its
 * entries in order (comparing a new value then needs no key list of its own: Object.keys per
 * comparison was most of the sharing's cost). An array or object nested in it is kept as a list
 * of one candidate, so that comparing it is the same search as the whole value's.
 */
type Seen = Scalar | { list: Item[] } | { entries: (string | Item)[] };
type Scalar = string | number | boolean | null;
type Item = Scalar | Seen[];

function seenForm(v: unknown): Seen {
  if (v === null || typeof v !== 'object') return v as Scalar;
  if (Array.isArray(v)) return { list: v.map(itemForm) };
  const entries: (string | Item)[] = [];
  for (const k in v) entries.push(k, itemForm((v as Record<string, unknown>)[k]));
  return { entries };
}

function itemForm(v: unknown): Item {
  return v === null || typeof v !== 'object' ? (v as Scalar) : [seenForm(v)];
}

/**
 * The index of the kept value `v` (JSON-made) equals, keys in the same order, or -1: a value equal
 * to a valid one is as valid, and builds the same. Nested values are compared by recursion, which
 * V8 never inlines: compiled once, this search is not compiled again into every lookup (inlined
 * copies of a comparison were the largest part of V8's compiler work validating 20k hosts).
 */
function indexIn(v: unknown, kept: readonly Seen[]): number {
  if (Array.isArray(v)) {
    for (let i = 0; i < kept.length; i++) {
      const form = kept[i];
      if (form === null || typeof form !== 'object' || !('list' in form)) continue;
      const list = form.list;
      if (v.length !== list.length) continue;
      let j = 0;
      for (; j < list.length; j++) {
        const item = list[j];
        if (Array.isArray(item) ? indexIn(v[j], item) !== 0 : v[j] !== item) break;
      }
      if (j === list.length) return i;
    }
  } else if (isPlainObject(v)) {
    for (let i = 0; i < kept.length; i++) {
      const form = kept[i];
      if (form === null || typeof form !== 'object' || !('entries' in form)) continue;
      const entries = form.entries;
      let j = 0;
      for (const k in v) {
        const item = entries[j + 1];
        if (
          j >= entries.length ||
          k !== entries[j] ||
          (Array.isArray(item) ? indexIn(v[k], item) !== 0 : v[k] !== item)
        ) {
          j = -1;
          break;
        }
        j += 2;
      }
      if (j === entries.length) return i;
    }
  } else {
    for (let i = 0; i < kept.length; i++) if (v === kept[i]) return i;
  }
  return -1;
}

// Empty lists of hosts that list nothing, shared as the Fleet would (nobody mutates host states).
const NO_AGGREGATES: Aggregate[] = [];
const NO_SUPPORTED: [string, string, string][] = [];
const NO_TRAITS: string[] = [];

/**
 * The empty records and metrics of every host that has none: fresh ones were about half the bytes
 * of a host state (20k hosts, 6 MB more for the collector to copy). Frozen, so a writer that
 * forgets host states are shared fails loudly instead of changing every host at once.
 */
const NO_RECORDS: Record<string, never> = Object.freeze({});
const NO_METRICS: never[] = Object.freeze([]) as never[];

// ---- nested objects ---------------------------------------------------------------------------

const AGGREGATE_KEYS = new Set(['uuid', 'name', 'hosts', 'metadata']);

/** `z.array(aggregate)`, where z.object would keep every key (others go to zod, which drops them). */
function validAggregates(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const a = v[i];
    if (!isPlainObject(a) || !knownKeys(a, AGGREGATE_KEYS)) return false;
    if (!optional(a.uuid, isName) || !isName(a.name)) return false;
    if (a.hosts !== undefined && !validNames(a.hosts)) return false;
    if (a.metadata !== undefined && !validNovaStrings(a.metadata)) return false;
  }
  return true;
}

/** Aggregates as zod gives them: hosts and metadata filled, keys in the shape's order. */
function buildAggregates(v: unknown): Aggregate[] {
  return (v as Record<string, unknown>[]).map((a) => {
    const hosts = a.hosts === undefined ? [] : (a.hosts as string[]).slice();
    const metadata = a.metadata === undefined ? {} : (novaStrings(a.metadata) as Record<string, string>);
    const name = a.name as string;
    return a.uuid === undefined
      ? { name, hosts, metadata }
      : { uuid: a.uuid as string, name, hosts, metadata };
  });
}

const SERVICE_KEYS = new Set(['disabled', 'up', 'forced_down', 'disabled_reason', 'last_seen_up']);

/** `service`: booleans with defaults, optional reason and time. */
function validService(v: unknown): boolean {
  if (!isPlainObject(v) || !knownKeys(v, SERVICE_KEYS)) return false;
  return (
    optional(v.disabled, isBoolean) &&
    optional(v.up, isBoolean) &&
    optional(v.forced_down, isBoolean) &&
    nullish(v.disabled_reason, isString) &&
    nullish(v.last_seen_up, isString)
  );
}

function buildService(raw: unknown): ServiceState {
  const { disabled, up, forced_down, disabled_reason, last_seen_up } = raw as Record<string, unknown>;
  const out: ServiceState = {
    disabled: (disabled as boolean | undefined) ?? false,
    up: (up as boolean | undefined) ?? true,
  };
  if (forced_down !== undefined) out.forced_down = forced_down as boolean;
  if (disabled_reason !== undefined) out.disabled_reason = disabled_reason as string | null;
  if (last_seen_up !== undefined) out.last_seen_up = last_seen_up as string | null;
  return out;
}

/** `z.array(z.tuple([z.string(), z.string(), z.string()]))`. */
function validSupported(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const t = v[i];
    if (!Array.isArray(t) || t.length !== 3) return false;
    if (typeof t[0] !== 'string' || typeof t[1] !== 'string' || typeof t[2] !== 'string') return false;
  }
  return true;
}

function copyNames(v: unknown): string[] {
  return (v as string[]).slice();
}

function buildSupported(v: unknown): [string, string, string][] {
  return (v as string[][]).map((t) => [t[0], t[1], t[2]]);
}

/**
 * `instances`: a list of uuids, or a map of uuid to instance records without image properties
 * (those are canonicalised by zod's path); each becomes `{ ...record, uuid }`.
 */
function instancesOf(v: unknown): Record<string, InstanceOnHost> | Miss {
  const out: Record<string, InstanceOnHost> = {};
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const uuid = v[i];
      // Object.fromEntries would make an own __proto__ key; an assignment would not.
      if (!isId(uuid) || uuid === '__proto__') return MISS;
      out[uuid] = { uuid };
    }
    return out;
  }
  const keys = recordKeys(v);
  if (keys === MISS) return MISS;
  for (const uuid of keys) {
    const record = (v as Record<string, unknown>)[uuid];
    if (!isId(uuid) || !isPlainObject(record)) return MISS;
    const copy: Record<string, unknown> = {};
    // zod's looseObject puts its shape key (uuid) first when given; the spread keeps that place.
    if (record.uuid !== undefined) {
      if (!isId(record.uuid)) return MISS;
      copy.uuid = uuid;
    }
    for (const key in record) {
      if (key === 'uuid') continue;
      if (key === 'image_properties' || key === '__proto__' || key === 'constructor') return MISS;
      if (record[key] === undefined) return MISS;
      copy[key] = record[key];
    }
    copy.uuid = uuid;
    out[uuid] = copy as InstanceOnHost;
  }
  return out;
}
