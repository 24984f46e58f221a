import type { Aggregate, HostState } from '../model/hostState.js';
import { carryFleetIndex, fleetIndex } from './prefilter/fleetIndex.js';

/**
 * Host states loaded once and shared by many scheduling requests. Hosts with the same aggregate
 * membership share one `aggregates` array, so aggregate-derived answers (AZ, metadata, multiplier
 * overrides) are computed once per distinct membership instead of once per host. Hosts are treated
 * as immutable: a changed host is a new object (consumption copies, see consume.ts).
 */
export class Fleet {
  private keys: ReadonlySet<string> | undefined;
  private hostsByName: Map<string, HostState[]> | undefined;

  private constructor(readonly hosts: readonly HostState[]) {}

  /**
   * Every metadata key used by any aggregate; lets weighers skip per-host override look-ups. Read
   * from the fleet index's distinct memberships (hosts share their aggregate lists), which the
   * pre-filter builds anyway: no pass over the hosts of its own.
   */
  get aggregateKeys(): ReadonlySet<string> {
    if (this.keys) return this.keys;
    const keys = new Set<string>();
    for (const aggs of fleetIndex(this.hosts).aggregates.groups)
      for (const a of aggs) for (const k of Object.keys(a.metadata)) keys.add(k);
    this.keys = keys;
    return keys;
  }

  /** Hosts by name (a host may have several nodes), built when first asked for. */
  get byName(): ReadonlyMap<string, HostState[]> {
    if (this.hostsByName) return this.hostsByName;
    const byName = new Map<string, HostState[]>();
    for (const h of this.hosts) {
      const list = byName.get(h.host);
      if (list) list.push(h);
      else byName.set(h.host, [h]);
    }
    this.hostsByName = byName;
    return byName;
  }

  /**
   * This fleet with the hosts at some positions replaced, everything else in place: the Fleet that
   * `Fleet.from` makes of such an array, whose engine index starts from this fleet's (a refresh
   * that changed a few hosts then costs the next decision only those hosts, not a re-index).
   */
  withReplaced(replacements: ReadonlyMap<number, HostState>): Fleet {
    // Every host this fleet holds is laid out already (by internHosts): only the replacements need
    // it, and the others stay the very objects the index knows.
    const hosts = this.hosts.slice();
    const laidOut = internHosts([...replacements.values()]);
    let k = 0;
    for (const i of replacements.keys()) hosts[i] = laidOut[k++];
    const fleet = new Fleet(hosts);
    carryFleetIndex(this.hosts, fleet.hosts);
    return fleet;
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
      service: shared('service', h.service, serviceKey(h.service)),
      hypervisor_type: h.hypervisor_type,
      hypervisor_version: h.hypervisor_version,
      hypervisor_hostname: h.hypervisor_hostname,
      supported_instances: shared('supported', h.supported_instances, listKey(h.supported_instances.flat())),
      cpu_info: h.cpu_info === null ? null : shared('cpu_info', h.cpu_info, h.cpu_info),
      host_ip: h.host_ip,
      stats: h.stats,
      numa_topology: h.numa_topology,
      pci_stats: h.pci_stats,
      availability_zone: h.availability_zone,
      traits: shared('traits', h.traits, listKey(h.traits)),
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
  const keys = aggregates.map(aggregateKey);
  const parts = aggregates.map((a, i) => shared('aggregate', a, keys[i]));
  return shared('aggregates', parts, keys.join('\u0001'));
}

const EMPTY: Aggregate[] = [];

// The keys below are built by hand: JSON.stringify of each host's sub-values was most of the time
// it takes to lay out 20k hosts. Strings are JSON-quoted, so no separator can be forged.

function aggregateKey(a: Aggregate): string {
  const keys = Object.keys(a.metadata);
  if (keys.length > 1) keys.sort();
  let key = `${a.uuid === undefined ? '-' : JSON.stringify(a.uuid)}${JSON.stringify(a.name)}`;
  for (const k of keys) key += `${JSON.stringify(k)}:${JSON.stringify(a.metadata[k])}`;
  return key;
}

// Every ServiceState field must be in the key, or hosts with different services share one record.
function serviceKey(s: HostState['service']): string {
  return `${s.disabled},${s.up},${s.forced_down},${s.assumed},${s.report_interval_seconds},${JSON.stringify(s.disabled_reason)},${JSON.stringify(s.last_seen_up)}`;
}

function listKey(items: readonly string[]): string {
  let key = '';
  for (const item of items) key += JSON.stringify(item);
  return key;
}
