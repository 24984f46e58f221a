import type { Aggregate, HostState } from './hostState.js';
import { pyStr } from './schema.js';

/**
 * A host state in its common shape, validated by hand: what `toHostState(hostStateInput.parse(x))`
 * gives, or null when `x` is not plainly valid in that shape (a nested field such as NUMA, PCI,
 * metrics, instances or inventories, a field this path does not know, or any invalid value), and
 * then zod decides and names what is wrong.
 *
 * Why: zod walks every field of every host with closures and copies; at 20k hosts that is most of
 * `placid schedule`. The fast path accepts only what zod accepts (a property test holds them equal).
 */
export function fastHostState(x: unknown): HostState | null {
  if (!isPlainObject(x)) return null;
  const h = x as Record<string, unknown>;
  for (const key in h) if (!FAST_FIELDS.has(key)) return null;
  const host = h.host;
  if (typeof host !== 'string' || host.length === 0) return null;
  const nodename = h.nodename;
  const uuid = h.uuid;
  if (!optionalString(nodename) || !optionalString(uuid) || !nullishString(h.cell_uuid)) return null;
  const node = (nodename as string | undefined) ?? host;

  const free_ram_mb = num(h.free_ram_mb, FINITE);
  const total_usable_ram_mb = num(h.total_usable_ram_mb, NON_NEGATIVE);
  const free_disk_mb = num(h.free_disk_mb, FINITE);
  const total_usable_disk_gb = num(h.total_usable_disk_gb, NON_NEGATIVE);
  const disk_mb_used = num(h.disk_mb_used, NON_NEGATIVE);
  const vcpus_total = num(h.vcpus_total, NON_NEGATIVE);
  const vcpus_used = num(h.vcpus_used, NON_NEGATIVE);
  const num_io_ops = num(h.num_io_ops, COUNT);
  const failed_builds = num(h.failed_builds, COUNT);
  if (
    Number.isNaN(free_ram_mb) ||
    Number.isNaN(total_usable_ram_mb) ||
    Number.isNaN(free_disk_mb) ||
    Number.isNaN(total_usable_disk_gb) ||
    Number.isNaN(disk_mb_used) ||
    Number.isNaN(vcpus_total) ||
    Number.isNaN(vcpus_used) ||
    Number.isNaN(num_io_ops) ||
    Number.isNaN(failed_builds)
  )
    return null;
  const ratios = [h.cpu_allocation_ratio, h.ram_allocation_ratio, h.disk_allocation_ratio];
  for (const r of ratios)
    if (r != null && !(typeof r === 'number' && Number.isFinite(r) && r > 0)) return null;
  const numInstances = h.num_instances;
  if (numInstances !== undefined && !isCount(numInstances)) return null;
  const version = h.hypervisor_version;
  if (version != null && !isCount(version)) return null;
  for (const k of NULLISH_STRINGS) if (!nullishString(h[k])) return null;
  const cpuInfo = h.cpu_info;
  if (cpuInfo != null && typeof cpuInfo !== 'string') return null;
  if (h.numa_topology != null || h.pci_stats != null) return null;
  if (!emptyOrMissing(h.instances) || !emptyOrMissing(h.metrics) || !emptyOrMissing(h.inventories))
    return null;

  const aggregates = aggregatesOf(h.aggregates);
  const service = serviceOf(h.service);
  const supported = supportedOf(h.supported_instances);
  const stats = h.stats === undefined ? {} : stringRecord(h.stats);
  const traits = h.traits === undefined ? [] : stringArray(h.traits);
  if (aggregates === null || service === null || supported === null || stats === null || traits === null)
    return null;
  return {
    host,
    nodename: node,
    uuid: (uuid as string | undefined) ?? `${host}:${node}`,
    cell_uuid: (h.cell_uuid as string | null | undefined) ?? null,
    free_ram_mb,
    total_usable_ram_mb,
    free_disk_mb,
    total_usable_disk_gb,
    disk_mb_used,
    vcpus_total,
    vcpus_used,
    cpu_allocation_ratio: (h.cpu_allocation_ratio as number | null | undefined) ?? null,
    ram_allocation_ratio: (h.ram_allocation_ratio as number | null | undefined) ?? null,
    disk_allocation_ratio: (h.disk_allocation_ratio as number | null | undefined) ?? null,
    aggregates,
    instances: {},
    // As toHostState: an explicit field wins, then stats, then the (empty) instance map.
    num_instances:
      (numInstances as number | undefined) ??
      (stats.num_instances !== undefined ? Number.parseInt(stats.num_instances, 10) || 0 : 0),
    num_io_ops,
    failed_builds,
    metrics: [],
    service,
    hypervisor_type: (h.hypervisor_type as string | null | undefined) ?? null,
    hypervisor_version: (version as number | null | undefined) ?? null,
    hypervisor_hostname: (h.hypervisor_hostname as string | null | undefined) ?? null,
    supported_instances: supported,
    cpu_info: (cpuInfo as string | null | undefined) ?? null,
    host_ip: (h.host_ip as string | null | undefined) ?? null,
    stats,
    numa_topology: null,
    pci_stats: null,
    availability_zone: (h.availability_zone as string | null | undefined) ?? null,
    traits,
    inventories: {},
    extra: {},
    limits: {},
  };
}

/** The fields the fast path reads; a host with any other field goes through zod. */
const FAST_FIELDS = new Set([
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

const NULLISH_STRINGS = ['hypervisor_type', 'hypervisor_hostname', 'host_ip', 'availability_zone'] as const;

const FINITE = 0;
const NON_NEGATIVE = 1;
const COUNT = 2;

/** The number (0 when missing), or NaN when zod would refuse it. */
function num(v: unknown, kind: number): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isFinite(v)) return Number.NaN;
  if (kind !== FINITE && v < 0) return Number.NaN;
  if (kind === COUNT && !Number.isSafeInteger(v)) return Number.NaN;
  return v;
}

function isCount(v: unknown): boolean {
  // zod's int() is a safe integer.
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isPlainObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function optionalString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

function nullishString(v: unknown): boolean {
  return v == null || typeof v === 'string';
}

function emptyOrMissing(v: unknown): boolean {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v as object).length === 0;
}

function stringArray(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  for (const s of v) if (typeof s !== 'string') return null;
  return v.slice();
}

/** A record of Nova strings (numbers and booleans stringified as Python's str()). */
function stringRecord(v: unknown): Record<string, string> | null {
  if (!isPlainObject(v)) return null;
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v as object)) {
    if (k === '__proto__') return null;
    if (typeof value === 'string') out[k] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[k] = pyStr(value);
    else return null;
  }
  return out;
}

/** Aggregates as zod's object schema gives them: unknown keys dropped, defaults filled. */
function aggregatesOf(v: unknown): Aggregate[] | null {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return null;
  const out: Aggregate[] = [];
  for (const a of v) {
    if (!isPlainObject(a)) return null;
    const { uuid, name, hosts, metadata } = a as Record<string, unknown>;
    if (typeof name !== 'string' || !optionalString(uuid)) return null;
    const members = hosts === undefined ? [] : stringArray(hosts);
    const meta = metadata === undefined ? {} : stringRecord(metadata);
    if (members === null || meta === null) return null;
    const agg: Aggregate = { name, hosts: members, metadata: meta };
    if (uuid !== undefined) agg.uuid = uuid as string;
    out.push(agg);
  }
  return out;
}

const SERVICE_KEYS = new Set(['disabled', 'up', 'forced_down', 'disabled_reason', 'last_seen_up']);

function serviceOf(v: unknown): HostState['service'] | null {
  if (v === undefined) return { disabled: false, up: true };
  if (!isPlainObject(v)) return null;
  const s = v as Record<string, unknown>;
  for (const key in s) if (!SERVICE_KEYS.has(key)) return null;
  const { disabled, up, forced_down, disabled_reason, last_seen_up } = s;
  if (disabled !== undefined && typeof disabled !== 'boolean') return null;
  if (up !== undefined && typeof up !== 'boolean') return null;
  if (forced_down !== undefined && typeof forced_down !== 'boolean') return null;
  if (!nullishString(disabled_reason) || !nullishString(last_seen_up)) return null;
  const out: HostState['service'] = { disabled: disabled ?? false, up: up ?? true };
  if (forced_down !== undefined) out.forced_down = forced_down;
  if (disabled_reason !== undefined) out.disabled_reason = disabled_reason as string | null;
  if (last_seen_up !== undefined) out.last_seen_up = last_seen_up as string | null;
  return out;
}

function supportedOf(v: unknown): [string, string, string][] | null {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return null;
  const out: [string, string, string][] = [];
  for (const t of v) {
    if (!Array.isArray(t) || t.length !== 3) return null;
    const [a, b, c] = t;
    if (typeof a !== 'string' || typeof b !== 'string' || typeof c !== 'string') return null;
    out.push([a, b, c]);
  }
  return out;
}
