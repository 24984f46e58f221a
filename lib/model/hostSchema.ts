import * as z from 'zod';
import { BOUNDS, bounded } from './bounds.js';
import { checkDistinctHosts, toHostState } from './hostDefaults.js';
import type { HostState } from './hostState.js';
import { identifier } from './identifiers.js';
import { canonicalImageProperties } from './imageMeta.js';
import { novaString, parseWith } from './schema.js';

export { toHostState } from './hostDefaults.js';

/** Keys (host, nodename, uuids): never empty. */
const id = identifier();
/** Other names: an empty one is legal. */
const name = identifier({ allowEmpty: true });
const ratio = bounded('allocation_ratio', { positive: true });

const aggregate = z.object({
  uuid: name.optional(),
  name,
  hosts: z.array(name).default([]),
  metadata: z.record(z.string(), novaString).default({}),
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
  cpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default([]),
  pcpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default([]),
  memory: bounded('ram_mb'),
  cpu_usage: bounded('vcpus').default(0),
  memory_usage: bounded('ram_mb').default(0),
  pinned_cpus: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default([]),
  siblings: z
    .array(z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max))
    .max(BOUNDS.cpu_id.max)
    .default([]),
  mempages: z
    .array(
      z.object({
        size_kb: bounded('page_size_kb'),
        total: bounded('page_count'),
        used: bounded('page_count').default(0),
        reserved: bounded('page_count').optional(),
      }),
    )
    .default([]),
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
  aggregates: z.array(aggregate).default([]),
  instances: z
    .union([z.record(id, instance), z.array(id)])
    .default({})
    .transform((v) =>
      Array.isArray(v)
        ? Object.fromEntries(v.map((uuid) => [uuid, { uuid }]))
        : Object.fromEntries(Object.entries(v).map(([uuid, i]) => [uuid, { ...i, uuid }])),
    ),
  num_instances: bounded('host_instances').optional(),
  num_io_ops: bounded('io_ops').optional(),
  failed_builds: bounded('failed_builds').default(0),
  metrics: z.array(metric).default([]),
  service: service.optional(),
  hypervisor_type: z.string().nullish(),
  hypervisor_version: bounded('hypervisor_version').nullish(),
  hypervisor_hostname: name.nullish(),
  supported_instances: z.array(z.tuple([z.string(), z.string(), z.string()])).default([]),
  cpu_info: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .nullish()
    .transform((v) => (v == null ? null : typeof v === 'string' ? v : JSON.stringify(v))),
  host_ip: z.string().nullish(),
  // Nova's stats are strings, but a dict value is walked by ComputeCapabilitiesFilter.
  stats: z.record(z.string(), z.union([novaString, z.record(z.string(), z.unknown())])).default({}),
  numa_topology: z.object({ cells: z.array(numaCell) }).nullish(),
  pci_stats: z.object({ pools: z.array(pciPool) }).nullish(),
  availability_zone: name.nullish(),
  traits: z.array(name).default([]),
  inventories: z.record(z.string(), inventory).default({}),
});

export type HostStateInput = z.input<typeof hostStateInput>;

export type HostStateOutput = z.output<typeof hostStateInput>;

const hostStatesInput = z.array(hostStateInput);

/** Parses an array of host states; `source` names the file or message in errors. */
export function parseHostStates(input: unknown, source = 'hosts'): HostState[] {
  const states = parseWith(hostStatesInput, input, source).map(toHostState);
  checkDistinctHosts(states, source);
  return states;
}
