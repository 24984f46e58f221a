import * as z from 'zod';
import { BOUNDS, bounded } from './bounds.js';
import { MISS } from './compiledSchema.js';
import { ValidationError } from './errors.js';
import {
  ASSUMED_SERVICE,
  HOST_STATE_FIELDS,
  type HostState,
  NO_LIMITS,
  type StatValue,
} from './hostState.js';
import { identifier } from './identifiers.js';
import { canonicalImageProperties } from './imageMeta.js';
import { SharedMemberships } from './memberships.js';
import { compiledParser, novaString, parseWith } from './schema.js';

/**
 * An absent list or map is one shared, frozen empty value: hosts are never changed in place (a
 * claim copies, see engine/consume.ts), and 20k parsed hosts then carry no dozen empty objects each.
 */
const NONE: never[] = Object.freeze([]) as never[];
const EMPTY: Record<string, never> = Object.freeze({});
const none = () => NONE;
const empty = () => EMPTY;

/** Keys (host, nodename, uuids): never empty. */
const id = identifier();
/** Other names: an empty one is legal. */
const name = identifier({ allowEmpty: true });
const ratio = bounded('allocation_ratio', { positive: true });

const aggregate = z.object({
  uuid: name.optional(),
  name,
  hosts: z.array(name).default(none),
  metadata: z.record(z.string(), novaString).default(empty),
});

const service = z.object({
  disabled: z.boolean().default(false),
  up: z.boolean().default(true),
  forced_down: z.boolean().optional(),
  disabled_reason: z.string().nullish(),
  last_seen_up: z.string().nullish(),
});

const metric = z.object({
  name: z.string().min(1),
  // Nova's memory-bandwidth metrics carry per-NUMA-node values and may carry no value at all.
  value: bounded('metric').optional(),
  numa_membw_values: z.record(z.string(), bounded('metric')).optional(),
  source: z.string().optional(),
  timestamp: z.string().optional(),
});

const instance = z.looseObject({
  uuid: id.optional(),
  image_properties: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .transform((p) => (p ? canonicalImageProperties(p) : p)),
});

const inventory = z.object({
  total: bounded('inventory'),
  used: bounded('inventory').default(0),
  reserved: bounded('inventory').optional(),
  allocation_ratio: ratio.optional(),
  min_unit: bounded('inventory').optional(),
  max_unit: bounded('inventory').optional(),
  step_size: bounded('inventory', { positive: true }).optional(),
});

const numaCell = z.object({
  id: bounded('cpu_id'),
  socket: bounded('cpu_id').nullish(),
  cpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default(none),
  pcpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default(none),
  memory: bounded('ram_mb'),
  cpu_usage: bounded('vcpus').default(0),
  memory_usage: bounded('ram_mb').default(0),
  pinned_cpus: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default(none),
  siblings: z
    .array(z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max))
    .max(BOUNDS.cpu_id.max)
    .default(none),
  mempages: z
    .array(
      z.object({
        size_kb: bounded('page_size_kb'),
        total: bounded('page_count'),
        used: bounded('page_count').default(0),
        reserved: bounded('page_count').optional(),
      }),
    )
    .default(none),
});

const pciPool = z.looseObject({
  vendor_id: z.string(),
  product_id: z.string(),
  count: bounded('pci_devices'),
  numa_node: z.number().int().min(-1).max(BOUNDS.cpu_id.max).nullish(),
  physical_network: z.string().nullish(),
  dev_type: z.string().optional(),
  tags: z.record(z.string(), novaString).optional(),
});

/** Input shape of one host state: every field optional but `host`; omitted fields take HostState defaults. */
export const hostStateInput = z.looseObject({
  host: id,
  nodename: id.optional(),
  uuid: id.optional(),
  cell_uuid: name.nullish(),
  free_ram_mb: bounded('free_ram_mb').default(0),
  total_usable_ram_mb: bounded('ram_mb').default(0),
  free_disk_mb: bounded('free_disk_mb').default(0),
  total_usable_disk_gb: bounded('disk_gb').default(0),
  disk_mb_used: bounded('disk_mb').default(0),
  vcpus_total: bounded('vcpus').default(0),
  vcpus_used: bounded('vcpus').default(0),
  cpu_allocation_ratio: ratio.nullish(),
  ram_allocation_ratio: ratio.nullish(),
  disk_allocation_ratio: ratio.nullish(),
  aggregates: z.array(aggregate).default(none),
  instances: z
    .union([z.record(id, instance), z.array(id)])
    .default(empty)
    .transform((v) =>
      v === EMPTY
        ? EMPTY
        : Array.isArray(v)
          ? Object.fromEntries(v.map((uuid) => [uuid, { uuid }]))
          : Object.fromEntries(Object.entries(v).map(([uuid, i]) => [uuid, { ...i, uuid }])),
    ),
  num_instances: bounded('host_instances').optional(),
  num_io_ops: bounded('io_ops').optional(),
  failed_builds: bounded('failed_builds').default(0),
  metrics: z.array(metric).default(none),
  service: service.optional(),
  hypervisor_type: z.string().nullish(),
  hypervisor_version: bounded('hypervisor_version').nullish(),
  hypervisor_hostname: name.nullish(),
  supported_instances: z.array(z.tuple([z.string(), z.string(), z.string()])).default(none),
  cpu_info: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .nullish()
    .transform((v) => (v == null ? null : typeof v === 'string' ? v : JSON.stringify(v))),
  host_ip: z.string().nullish(),
  // Nova's stats are strings, but a dict value is walked by ComputeCapabilitiesFilter.
  stats: z.record(z.string(), z.union([novaString, z.record(z.string(), z.unknown())])).default(empty),
  numa_topology: z.object({ cells: z.array(numaCell) }).nullish(),
  pci_stats: z.object({ pools: z.array(pciPool) }).nullish(),
  availability_zone: name.nullish(),
  traits: z.array(name).default(none),
  inventories: z.record(z.string(), inventory).default(empty),
});

export type HostStateInput = z.input<typeof hostStateInput>;

export type HostStateOutput = z.output<typeof hostStateInput>;

const hostStatesInput = z.array(hostStateInput);

/** Parses an array of host states; `source` names the file or message in errors. */
export function parseHostStates(input: unknown, source = 'hosts'): HostState[] {
  const complete = completing(new SharedMemberships());
  const states =
    completeEach(input, complete) ?? parseWith(hostStatesInput, input, source).map((h) => complete(h));
  checkDistinctHosts(states, source);
  return states;
}

/**
 * Each host parsed and completed in turn, so its parsed form dies young instead of 20k of them
 * outliving a whole pass; undefined when some host is invalid (zod then words every problem).
 */
function completeEach(input: unknown, complete: Completing): HostState[] | undefined {
  if (!Array.isArray(input)) return undefined;
  const parse = compiledParser(hostStateInput);
  const states: HostState[] = new Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const parsed = parse(input[i]);
    if (parsed === MISS) return undefined;
    states[i] = complete(parsed as HostStateOutput, input[i]);
  }
  return states;
}

/**
 * toHostState for hosts of one input, whose equal aggregate memberships share one array. `raw`: the
 * host's document, whose unknown fields are the parsed host's (and fewer keys to look through).
 */
type Completing = (parsed: HostStateOutput, raw?: object) => HostState;
function completing(memberships: SharedMemberships): Completing {
  return (parsed, raw = parsed) => {
    parsed.aggregates = memberships.share(parsed.aggregates);
    return completeHostState(parsed, extrasOf(raw));
  };
}

/** Validates one host state document and fills Nova's defaults. */
export function toHostState(parsed: HostStateOutput): HostState {
  return completeHostState(parsed, extrasOf(parsed));
}

/** As toHostState, for a caller that has the document's unknown fields (`extra`) already. */
export function completeHostState(parsed: HostStateOutput, extra: Record<string, unknown>): HostState {
  const stats = parsed.stats;
  return {
    host: parsed.host,
    nodename: parsed.nodename ?? parsed.host,
    uuid: parsed.uuid ?? `${parsed.host}:${parsed.nodename ?? parsed.host}`,
    cell_uuid: parsed.cell_uuid ?? null,
    free_ram_mb: parsed.free_ram_mb,
    total_usable_ram_mb: parsed.total_usable_ram_mb,
    free_disk_mb: parsed.free_disk_mb,
    total_usable_disk_gb: parsed.total_usable_disk_gb,
    disk_mb_used: parsed.disk_mb_used,
    vcpus_total: parsed.vcpus_total,
    vcpus_used: parsed.vcpus_used,
    cpu_allocation_ratio: parsed.cpu_allocation_ratio ?? null,
    ram_allocation_ratio: parsed.ram_allocation_ratio ?? null,
    disk_allocation_ratio: parsed.disk_allocation_ratio ?? null,
    aggregates: parsed.aggregates,
    instances: parsed.instances,
    // Nova derives num_instances from stats; an explicit field wins, then stats, then the instance map.
    num_instances:
      parsed.num_instances ??
      statCount(stats.num_instances, BOUNDS.host_instances.max) ??
      Object.keys(parsed.instances).length,
    // Nova's HostState reads it from the `io_workload` stat; an explicit field wins.
    num_io_ops: parsed.num_io_ops ?? statCount(stats.io_workload, BOUNDS.io_ops.max) ?? 0,
    failed_builds: parsed.failed_builds,
    metrics: parsed.metrics,
    service: parsed.service ?? ASSUMED_SERVICE,
    hypervisor_type: parsed.hypervisor_type ?? null,
    hypervisor_version: parsed.hypervisor_version ?? null,
    hypervisor_hostname: parsed.hypervisor_hostname ?? null,
    supported_instances: parsed.supported_instances,
    cpu_info: parsed.cpu_info,
    host_ip: parsed.host_ip ?? null,
    stats,
    numa_topology: parsed.numa_topology ?? null,
    pci_stats: parsed.pci_stats ?? null,
    availability_zone: parsed.availability_zone ?? null,
    traits: parsed.traits,
    inventories: parsed.inventories,
    extra,
    limits: NO_LIMITS,
  };
}

/** The fields HostState does not know (they land in `extra`). */
function extrasOf(parsed: object): Record<string, unknown> {
  let extra: Record<string, unknown> | undefined;
  // for...in, not Object.entries: no pair arrays per host (parsed is a plain object without __proto__).
  for (const k in parsed) {
    if (HOST_STATE_FIELDS.has(k)) continue;
    extra ??= {};
    extra[k] = (parsed as Record<string, unknown>)[k];
  }
  return extra ?? EMPTY;
}

/** A counter stat (`num_instances`, `io_workload`) when it is a count within `max` (stats are free-form strings). */
export function statCount(value: StatValue | undefined, max: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const n = Number.parseInt(value, 10) || 0;
  return n >= 0 && n <= max ? n : undefined;
}

/** Refuses two hosts with the same host/nodename, naming both positions. */
export function checkDistinctHosts(states: readonly HostState[], source: string): void {
  // One Set insertion per host (a Map's get and set were two lookups, in a third more memory);
  // the first of a pair is looked for only when there is one.
  const seen = new Set<string>();
  for (let i = 0; i < states.length; i++) {
    const key = distinctKey(states[i]);
    const size = seen.size;
    if (seen.add(key).size === size) {
      const first = states.findIndex((h) => distinctKey(h) === key);
      const h = states[i];
      throw new ValidationError(source, [
        { path: `[${i}]`, message: `duplicate host/nodename ${h.host}/${h.nodename} (first at [${first}])` },
      ]);
    }
  }
}

/**
 * The host name alone when the node has the same name (most hosts): ids hold no NUL, so no other
 * host/node pair can make that key.
 */
function distinctKey(h: HostState): string {
  return h.nodename === h.host ? h.host : `${h.host}\u0000${h.nodename}`;
}
