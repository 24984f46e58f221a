import * as z from 'zod';
import { ValidationError } from './errors.js';
import { fastHostState } from './hostFastPath.js';
import { HOST_STATE_FIELDS, type HostState } from './hostState.js';
import { canonicalImageProperties } from './imageMeta.js';
import { formatPath } from './path.js';
import { finite, nonNegative, novaString, parseWith } from './schema.js';

const aggregate = z.object({
  uuid: z.string().optional(),
  name: z.string(),
  hosts: z.array(z.string()).default([]),
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
  value: finite,
  source: z.string().optional(),
  timestamp: z.string().optional(),
});

const instance = z.looseObject({
  uuid: z.string().optional(),
  image_properties: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .transform((p) => (p ? canonicalImageProperties(p) : p)),
});

const inventory = z.object({
  total: nonNegative,
  used: nonNegative.default(0),
  reserved: nonNegative.optional(),
  allocation_ratio: z.number().positive().optional(),
  min_unit: nonNegative.optional(),
  max_unit: nonNegative.optional(),
  step_size: z.number().positive().optional(),
});

const numaCell = z.object({
  id: z.number().int().nonnegative(),
  socket: z.number().int().nonnegative().nullish(),
  cpuset: z.array(z.number().int().nonnegative()).default([]),
  pcpuset: z.array(z.number().int().nonnegative()).default([]),
  memory: nonNegative,
  cpu_usage: nonNegative.default(0),
  memory_usage: nonNegative.default(0),
  pinned_cpus: z.array(z.number().int().nonnegative()).default([]),
  siblings: z.array(z.array(z.number().int().nonnegative())).default([]),
  mempages: z
    .array(
      z.object({
        size_kb: z.number().int().positive(),
        total: nonNegative,
        used: nonNegative.default(0),
        reserved: nonNegative.optional(),
      }),
    )
    .default([]),
});

const pciPool = z.looseObject({
  vendor_id: z.string(),
  product_id: z.string(),
  count: z.number().int().nonnegative(),
  numa_node: z.number().int().nullish(),
  physical_network: z.string().nullish(),
  dev_type: z.string().optional(),
  tags: z.record(z.string(), novaString).optional(),
});

/** Input shape of one host state: every field optional but `host`; omitted fields take HostState defaults. */
export const hostStateInput = z.looseObject({
  host: z.string().min(1, 'must be a non-empty host name'),
  nodename: z.string().optional(),
  uuid: z.string().optional(),
  cell_uuid: z.string().nullish(),
  free_ram_mb: finite.default(0),
  total_usable_ram_mb: nonNegative.default(0),
  free_disk_mb: finite.default(0),
  total_usable_disk_gb: nonNegative.default(0),
  disk_mb_used: nonNegative.default(0),
  vcpus_total: nonNegative.default(0),
  vcpus_used: nonNegative.default(0),
  cpu_allocation_ratio: z.number().positive().nullish(),
  ram_allocation_ratio: z.number().positive().nullish(),
  disk_allocation_ratio: z.number().positive().nullish(),
  aggregates: z.array(aggregate).default([]),
  instances: z
    .union([z.record(z.string(), instance), z.array(z.string())])
    .default({})
    .transform((v) =>
      Array.isArray(v)
        ? Object.fromEntries(v.map((uuid) => [uuid, { uuid }]))
        : Object.fromEntries(Object.entries(v).map(([uuid, i]) => [uuid, { ...i, uuid }])),
    ),
  num_instances: z.number().int().nonnegative().optional(),
  num_io_ops: z.number().int().nonnegative().default(0),
  failed_builds: z.number().int().nonnegative().default(0),
  metrics: z.array(metric).default([]),
  service: service.default({ disabled: false, up: true }),
  hypervisor_type: z.string().nullish(),
  hypervisor_version: z.number().int().nonnegative().nullish(),
  hypervisor_hostname: z.string().nullish(),
  supported_instances: z.array(z.tuple([z.string(), z.string(), z.string()])).default([]),
  cpu_info: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .nullish()
    .transform((v) => (v == null ? null : typeof v === 'string' ? v : JSON.stringify(v))),
  host_ip: z.string().nullish(),
  stats: z.record(z.string(), novaString).default({}),
  numa_topology: z.object({ cells: z.array(numaCell) }).nullish(),
  pci_stats: z.object({ pools: z.array(pciPool) }).nullish(),
  availability_zone: z.string().nullish(),
  traits: z.array(z.string()).default([]),
  inventories: z.record(z.string(), inventory).default({}),
});

export type HostStateInput = z.input<typeof hostStateInput>;

/** Validates one host state document and fills Nova's defaults. */
export function toHostState(parsed: z.output<typeof hostStateInput>): HostState {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed)) if (!HOST_STATE_FIELDS.has(k)) extra[k] = v;
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
      (stats.num_instances !== undefined
        ? Number.parseInt(stats.num_instances, 10) || 0
        : Object.keys(parsed.instances).length),
    num_io_ops: parsed.num_io_ops,
    failed_builds: parsed.failed_builds,
    metrics: parsed.metrics,
    service: parsed.service,
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
    limits: {},
  };
}

/** Parses an array of host states; `source` names the file or message in errors. */
export function parseHostStates(input: unknown, source = 'hosts'): HostState[] {
  const states = hostStatesOf(input, source);
  const seen = new Map<string, number>();
  states.forEach((h, i) => {
    const key = `${h.host}\u0000${h.nodename}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new ValidationError(source, [
        { path: `[${i}]`, message: `duplicate host/nodename ${h.host}/${h.nodename} (first at [${first}])` },
      ]);
    }
    seen.set(key, i);
  });
  return states;
}

/**
 * Each host by the fast path (hostFastPath.ts) when it has the common shape, else by zod; the
 * issues of every host zod refuses are reported together, as one parse of the array would.
 */
function hostStatesOf(input: unknown, source: string): HostState[] {
  if (!Array.isArray(input)) return parseWith(z.array(hostStateInput), input, source).map(toHostState);
  const states: HostState[] = new Array(input.length);
  const issues: { path: string; message: string }[] = [];
  for (let i = 0; i < input.length; i++) {
    const fast = fastHostState(input[i]);
    if (fast) {
      states[i] = fast;
      continue;
    }
    const result = hostStateInput.safeParse(input[i]);
    if (result.success) states[i] = toHostState(result.data);
    else
      for (const issue of result.error.issues)
        issues.push({ path: formatPath([i, ...issue.path]), message: issue.message });
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
  return states;
}
