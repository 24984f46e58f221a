import type { Aggregate, HostState } from '../model/hostState.js';

/**
 * Host states loaded once and shared by many scheduling requests. Hosts with the same aggregate
 * membership share one `aggregates` array, so aggregate-derived answers (AZ, metadata, multiplier
 * overrides) are computed once per distinct membership instead of once per host. Hosts are treated
 * as immutable: a changed host is a new object (consumption copies, see consume.ts).
 */
export class Fleet {
  /** Every metadata key used by any aggregate; lets weighers skip per-host override look-ups. */
  readonly aggregateKeys: ReadonlySet<string>;
  readonly byName: ReadonlyMap<string, HostState[]>;

  private constructor(readonly hosts: readonly HostState[]) {
    const keys = new Set<string>();
    const byName = new Map<string, HostState[]>();
    for (const h of hosts) {
      for (const a of h.aggregates) for (const k of Object.keys(a.metadata)) keys.add(k);
      const list = byName.get(h.host);
      if (list) list.push(h);
      else byName.set(h.host, [h]);
    }
    this.aggregateKeys = keys;
    this.byName = byName;
  }

  static from(hosts: readonly HostState[] | Fleet): Fleet {
    if (hosts instanceof Fleet) return hosts;
    return new Fleet(internHosts(hosts));
  }
}

/** Hosts already laid out by `internHosts` (safe to reuse as they are). */
const interned = new WeakSet<HostState>();

/**
 * Shared copies of the small values many hosts repeat (aggregate sets, service records, supported
 * instance tuples, trait lists). Bounded: cleared when it grows past MAX_POOL distinct values.
 */
const pool = new Map<string, unknown>();
const MAX_POOL = 50_000;

function shared<T>(kind: string, value: T, key: string = JSON.stringify(value)): T {
  const k = `${kind}\u0000${key}`;
  const hit = pool.get(k);
  if (hit !== undefined) return hit as T;
  if (pool.size >= MAX_POOL) pool.clear();
  pool.set(k, value);
  return value;
}

/**
 * Copies every host into one object shape, in fleet order, with repeated sub-values shared. Hosts
 * with the same aggregate membership then share one `aggregates` array (aggregate-derived answers
 * are cached by that identity), and a scan over the fleet touches far less memory.
 */
function internHosts(hosts: readonly HostState[]): HostState[] {
  return hosts.map((h) => {
    if (interned.has(h)) return h;
    const copy: HostState = {
      host: h.host,
      nodename: h.nodename,
      uuid: h.uuid,
      cell_uuid: h.cell_uuid,
      free_ram_mb: h.free_ram_mb,
      total_usable_ram_mb: h.total_usable_ram_mb,
      free_disk_mb: h.free_disk_mb,
      total_usable_disk_gb: h.total_usable_disk_gb,
      disk_mb_used: h.disk_mb_used,
      vcpus_total: h.vcpus_total,
      vcpus_used: h.vcpus_used,
      cpu_allocation_ratio: h.cpu_allocation_ratio,
      ram_allocation_ratio: h.ram_allocation_ratio,
      disk_allocation_ratio: h.disk_allocation_ratio,
      aggregates: sharedAggregates(h.aggregates),
      instances: h.instances,
      num_instances: h.num_instances,
      num_io_ops: h.num_io_ops,
      failed_builds: h.failed_builds,
      metrics: h.metrics,
      service: shared('service', h.service),
      hypervisor_type: h.hypervisor_type,
      hypervisor_version: h.hypervisor_version,
      hypervisor_hostname: h.hypervisor_hostname,
      supported_instances: shared('supported', h.supported_instances),
      cpu_info: h.cpu_info === null ? null : shared('cpu_info', h.cpu_info, h.cpu_info),
      host_ip: h.host_ip,
      stats: h.stats,
      numa_topology: h.numa_topology,
      pci_stats: h.pci_stats,
      availability_zone: h.availability_zone,
      traits: shared('traits', h.traits),
      inventories: h.inventories,
      extra: h.extra,
      limits: h.limits,
    };
    interned.add(copy);
    return copy;
  });
}

function sharedAggregates(aggregates: Aggregate[]): Aggregate[] {
  if (aggregates.length === 0) return EMPTY;
  const parts = aggregates.map((a) => shared('aggregate', a, aggregateKey(a)));
  return shared('aggregates', parts, aggregates.map(aggregateKey).join('\u0001'));
}

const EMPTY: Aggregate[] = [];

function aggregateKey(a: Aggregate): string {
  return `${a.uuid ?? ''}\u0002${a.name}\u0002${JSON.stringify(Object.entries(a.metadata).sort())}`;
}
