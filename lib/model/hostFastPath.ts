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
import { BOUNDS } from './boundsTable.js';
import {
  defaulted,
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
  names,
  novaStrings,
  nullish,
  optional,
  recordKeys,
  within,
} from './fastChecks.js';
import { checkDistinctHosts, completeHostState } from './hostDefaults.js';
import type { HostStateOutput } from './hostSchema.js';
import {
  type Aggregate,
  HOST_STATE_FIELDS,
  type HostState,
  type InstanceOnHost,
  type ServiceState,
} from './hostState.js';

/**
 * Every host of a JSON array through the fast path, checked for duplicates (the same
 * ValidationError parseHostStates raises); undefined when the input is not an array or any host
 * needs zod.
 */
export function fastHostStates(input: unknown, source: string): HostState[] | undefined {
  if (!Array.isArray(input)) return undefined;
  const layout = new HostLayout();
  const states: HostState[] = new Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const state = fastHostState(input[i], layout);
    if (state === undefined) return undefined;
    states[i] = state;
  }
  checkDistinctHosts(states, source);
  return states;
}

/**
 * What zod and toHostState make of `x`, or undefined when zod must decide (see the file comment).
 * Hosts parsed with one `layout` share their equal aggregate lists, services, supported-instance
 * lists and traits, as the engine's Fleet would lay them out (it then keeps them as they are).
 */
export function fastHostState(x: unknown, layout = new HostLayout()): HostState | undefined {
  const parsed = parsedHost(x, layout);
  if (parsed === undefined) return undefined;
  const state = completeHostState(parsed, parsed.extra);
  laidOut.add(state);
  return state;
}

/** Equal sub-values of the hosts of one parse, shared; keyed by their JSON text (same text, same value). */
export class HostLayout {
  readonly aggregates = new Map<string, Aggregate[]>();
  readonly services = new Map<string, ServiceState>();
  readonly supported = new Map<string, [string, string, string][]>();
  readonly traits = new Map<string, string[]>();
}

/** Hosts the fast path made: one object shape, repeated sub-values already shared. */
const laidOut = new WeakSet<HostState>();

/**
 * True for a host state the fast path made and nobody has replaced: the engine's Fleet can take
 * it as it is instead of copying it into its own layout.
 */
export function isLaidOut(host: HostState): boolean {
  return laidOut.has(host);
}

/**
 * Fields of the schema this path reads; anything else it passes through as zod's looseObject does
 * (a test holds this list equal to the schema's keys, so a new schema field cannot slip through).
 */
export const FAST_PATH_FIELDS: ReadonlySet<string> = new Set([
  'host',
  'nodename',
  'uuid',
  'cell_uuid',
  'free_ram_mb',
  'total_usable_ram_mb',
  'free_disk_mb',
  'total_usable_disk_gb',
  'disk_mb_used',
  'vcpus_total',
  'vcpus_used',
  'cpu_allocation_ratio',
  'ram_allocation_ratio',
  'disk_allocation_ratio',
  'aggregates',
  'instances',
  'num_instances',
  'num_io_ops',
  'failed_builds',
  'metrics',
  'service',
  'hypervisor_type',
  'hypervisor_version',
  'hypervisor_hostname',
  'supported_instances',
  'cpu_info',
  'host_ip',
  'stats',
  'numa_topology',
  'pci_stats',
  'availability_zone',
  'traits',
  'inventories',
]);

function parsedHost(
  x: unknown,
  layout: HostLayout,
): (HostStateOutput & { extra: Record<string, unknown> }) | undefined {
  if (!isPlainObject(x)) return undefined;
  const h = x as Record<string, unknown>;
  // Unknown keys pass through (looseObject); keys that zod or the prototype treat specially do not.
  let extras: string[] | undefined;
  for (const key in h) {
    const v = h[key];
    if (v === undefined || key === '__proto__' || key === 'constructor') return undefined;
    if (FAST_PATH_FIELDS.has(key)) continue;
    if (extras === undefined) extras = [key];
    else extras.push(key);
  }
  if (!isId(h.host) || !optional(h.nodename, isId) || !optional(h.uuid, isId)) return undefined;
  if (!nullish(h.cell_uuid, isName) || !nullish(h.hypervisor_hostname, isName)) return undefined;
  if (!nullish(h.availability_zone, isName)) return undefined;
  if (!nullish(h.hypervisor_type, isString) || !nullish(h.host_ip, isString)) return undefined;
  if (!nullish(h.cpu_info, isString)) return undefined;
  if (h.numa_topology != null || h.pci_stats != null) return undefined;
  if (h.metrics !== undefined && !(Array.isArray(h.metrics) && h.metrics.length === 0)) return undefined;
  if (h.inventories !== undefined && !isEmptyRecord(h.inventories)) return undefined;

  const free_ram_mb = defaulted(h.free_ram_mb, BOUNDS.free_ram_mb);
  const total_usable_ram_mb = defaulted(h.total_usable_ram_mb, BOUNDS.ram_mb);
  const free_disk_mb = defaulted(h.free_disk_mb, BOUNDS.free_disk_mb);
  const total_usable_disk_gb = defaulted(h.total_usable_disk_gb, BOUNDS.disk_gb);
  const disk_mb_used = defaulted(h.disk_mb_used, BOUNDS.disk_mb);
  const vcpus_total = defaulted(h.vcpus_total, BOUNDS.vcpus);
  const vcpus_used = defaulted(h.vcpus_used, BOUNDS.vcpus);
  const failed_builds = defaulted(h.failed_builds, BOUNDS.failed_builds);
  if (
    free_ram_mb === MISS ||
    total_usable_ram_mb === MISS ||
    free_disk_mb === MISS ||
    total_usable_disk_gb === MISS ||
    disk_mb_used === MISS ||
    vcpus_total === MISS ||
    vcpus_used === MISS ||
    failed_builds === MISS
  )
    return undefined;
  if (!nullish(h.cpu_allocation_ratio, isRatio) || !nullish(h.ram_allocation_ratio, isRatio))
    return undefined;
  if (!nullish(h.disk_allocation_ratio, isRatio)) return undefined;
  if (!optional(h.num_instances, (v) => within(v, BOUNDS.host_instances))) return undefined;
  if (!optional(h.num_io_ops, (v) => within(v, BOUNDS.io_ops))) return undefined;
  if (!nullish(h.hypervisor_version, (v) => within(v, BOUNDS.hypervisor_version))) return undefined;

  const aggregates =
    h.aggregates === undefined ? NO_AGGREGATES : shared(layout.aggregates, h.aggregates, aggregatesOf);
  const instances = h.instances === undefined ? {} : instancesOf(h.instances);
  const service = h.service === undefined ? undefined : shared(layout.services, h.service, serviceOf);
  const supported =
    h.supported_instances === undefined
      ? NO_SUPPORTED
      : shared(layout.supported, h.supported_instances, supportedOf);
  const stats = h.stats === undefined ? {} : novaStrings(h.stats);
  const traits = h.traits === undefined ? NO_TRAITS : shared(layout.traits, h.traits, names);
  if (
    aggregates === MISS ||
    instances === MISS ||
    service === MISS ||
    supported === MISS ||
    stats === MISS ||
    traits === MISS
  )
    return undefined;

  const extra: Record<string, unknown> = {};
  if (extras) for (const key of extras) if (!HOST_STATE_FIELDS.has(key)) extra[key] = h[key];
  return {
    host: h.host as string,
    nodename: h.nodename as string | undefined,
    uuid: h.uuid as string | undefined,
    cell_uuid: h.cell_uuid as string | null | undefined,
    free_ram_mb,
    total_usable_ram_mb,
    free_disk_mb,
    total_usable_disk_gb,
    disk_mb_used,
    vcpus_total,
    vcpus_used,
    cpu_allocation_ratio: h.cpu_allocation_ratio as number | null | undefined,
    ram_allocation_ratio: h.ram_allocation_ratio as number | null | undefined,
    disk_allocation_ratio: h.disk_allocation_ratio as number | null | undefined,
    aggregates,
    instances,
    num_instances: h.num_instances as number | undefined,
    num_io_ops: h.num_io_ops as number | undefined,
    failed_builds,
    metrics: [],
    service,
    hypervisor_type: h.hypervisor_type as string | null | undefined,
    hypervisor_version: h.hypervisor_version as number | null | undefined,
    hypervisor_hostname: h.hypervisor_hostname as string | null | undefined,
    supported_instances: supported,
    // zod's transform: a string stays, an absent or null one becomes null.
    cpu_info: (h.cpu_info as string | null | undefined) ?? null,
    host_ip: h.host_ip as string | null | undefined,
    stats,
    numa_topology: h.numa_topology as null | undefined,
    pci_stats: h.pci_stats as null | undefined,
    availability_zone: h.availability_zone as string | null | undefined,
    traits,
    inventories: {},
    extra,
  };
}

/**
 * The value `build` makes of `raw`, shared with every earlier equal `raw` of the parse. Equal
 * JSON text means an equal value: each is validated in full the first time only.
 */
function shared<T>(cache: Map<string, T>, raw: unknown, build: (raw: unknown) => T | Miss): T | Miss {
  const key = JSON.stringify(raw);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = build(raw);
  if (value !== MISS) cache.set(key, value);
  return value;
}

// Empty lists of hosts that list nothing, shared as the Fleet would (nobody mutates host states).
const NO_AGGREGATES: Aggregate[] = [];
const NO_SUPPORTED: [string, string, string][] = [];
const NO_TRAITS: string[] = [];

// ---- nested objects ---------------------------------------------------------------------------

const AGGREGATE_KEYS = new Set(['uuid', 'name', 'hosts', 'metadata']);

/** `z.array(aggregate)`: z.object drops unknown keys and fills hosts and metadata. */
function aggregatesOf(v: unknown): Aggregate[] | Miss {
  if (!Array.isArray(v)) return MISS;
  const out: Aggregate[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const a = v[i];
    if (!isPlainObject(a) || !knownKeys(a, AGGREGATE_KEYS)) return MISS;
    const { uuid, name } = a;
    if (!optional(uuid, isName) || !isName(name)) return MISS;
    const hosts = a.hosts === undefined ? [] : names(a.hosts);
    const metadata = a.metadata === undefined ? {} : novaStrings(a.metadata);
    if (hosts === MISS || metadata === MISS) return MISS;
    // zod's key order: the shape's, for the keys it sets.
    out[i] =
      uuid === undefined
        ? { name: name as string, hosts, metadata }
        : { uuid: uuid as string, name: name as string, hosts, metadata };
  }
  return out;
}

const SERVICE_KEYS = new Set(['disabled', 'up', 'forced_down', 'disabled_reason', 'last_seen_up']);

/** `service`: booleans with defaults, optional reason and time. */
function serviceOf(v: unknown): ServiceState | Miss {
  if (!isPlainObject(v) || !knownKeys(v, SERVICE_KEYS)) return MISS;
  const { disabled, up, forced_down, disabled_reason, last_seen_up } = v;
  if (!optional(disabled, isBoolean) || !optional(up, isBoolean) || !optional(forced_down, isBoolean))
    return MISS;
  if (!nullish(disabled_reason, isString) || !nullish(last_seen_up, isString)) return MISS;
  const out: ServiceState = {
    disabled: (disabled as boolean | undefined) ?? false,
    up: (up as boolean | undefined) ?? true,
  };
  if (forced_down !== undefined) out.forced_down = forced_down as boolean;
  if (disabled_reason !== undefined) out.disabled_reason = disabled_reason as string | null;
  if (last_seen_up !== undefined) out.last_seen_up = last_seen_up as string | null;
  return out;
}

/** `z.array(z.tuple([z.string(), z.string(), z.string()]))`: fresh triples. */
function supportedOf(v: unknown): [string, string, string][] | Miss {
  if (!Array.isArray(v)) return MISS;
  const out: [string, string, string][] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const t = v[i];
    if (!Array.isArray(t) || t.length !== 3) return MISS;
    const [a, b, c] = t;
    if (typeof a !== 'string' || typeof b !== 'string' || typeof c !== 'string') return MISS;
    out[i] = [a, b, c];
  }
  return out;
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
