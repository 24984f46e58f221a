import type { Aggregate, HostState } from '../model/hostState.js';
import {
  type AggregateIndex,
  indexAggregates,
  indexNames,
  indexTraits,
  type NameIndex,
  type TraitIndex,
} from './fleetIndex.js';

/**
 * Host states loaded once and shared by many scheduling requests, with what the engine needs to
 * know about them, built here once: hosts numbered by aggregate membership and trait set (the
 * pre-filter decides its aggregate and trait rules once per group), host names (and, when first
 * asked, lower-cased host and node names), and the
 * aggregate metadata keys in use. Hosts with the same aggregate membership share one `aggregates`
 * array, so aggregate-derived answers (AZ, metadata, multiplier overrides) are computed once per
 * distinct membership. Hosts are treated as immutable: a changed host is a new object
 * (consumption copies, see consume.ts), and a changed fleet is a new Fleet.
 */
export class Fleet {
  readonly aggregates: AggregateIndex;
  readonly traits: TraitIndex;
  /** True when some host reports its own `availability_zone` (not only through aggregates). */
  readonly hostsReportZones: boolean;
  /** Every metadata key used by any aggregate; lets weighers skip per-host override look-ups. */
  readonly aggregateKeys: ReadonlySet<string>;
  /** Hosts by name, exactly as reported (a host may have several nodes). */
  readonly byName: ReadonlyMap<string, HostState[]>;
  // Built on first use: only a request that forces a host or node reads it.
  private nameIndex?: NameIndex;
  private nodeIndex?: ReadonlyMap<string, HostState>;

  private constructor(readonly hosts: readonly HostState[]) {
    this.aggregates = indexAggregates(hosts);
    this.traits = indexTraits(hosts);
    this.hostsReportZones = hosts.some((h) => h.availability_zone != null);
    const keys = new Set<string>();
    for (const a of this.aggregates.aggregates) for (const k of Object.keys(a.metadata)) keys.add(k);
    this.aggregateKeys = keys;
    const byName = new Map<string, HostState[]>();
    for (const h of hosts) {
      const list = byName.get(h.host);
      if (list) list.push(h);
      else byName.set(h.host, [h]);
    }
    this.byName = byName;
  }

  /** Lower-cased host and node names → host positions (forced hosts and nodes). */
  get names(): NameIndex {
    this.nameIndex ??= indexNames(this.hosts);
    return this.nameIndex;
  }

  /**
   * Hosts by `host\u0000nodename`, built on first use: for hosts with many nodes (ironic), where
   * scanning `byName`'s list per candidate would not do.
   */
  get byNodeKey(): ReadonlyMap<string, HostState> {
    this.nodeIndex ??= new Map(this.hosts.map((h) => [`${h.host}\u0000${h.nodename}`, h]));
    return this.nodeIndex;
  }

  /**
   * The fleet of `hosts`, each copied into one layout; hosts of `previous` (a snapshot refresh's
   * unchanged hosts) are taken as they are, so one copy of each host lives on.
   */
  static from(hosts: readonly HostState[] | Fleet, previous?: Fleet): Fleet {
    if (hosts instanceof Fleet) return hosts;
    return new Fleet(internHosts(hosts, new Set(previous?.hosts)));
  }

  /**
   * The fleet of some of this fleet's hosts (an advisory request's candidates), taken as they are:
   * they are laid out already, so nothing is copied. A host may be replaced by a shallow copy of
   * itself (its sub-values, aggregates included, still this fleet's).
   */
  among(hosts: readonly HostState[]): Fleet {
    return new Fleet(hosts);
  }
}

/**
 * Copies every host into one object shape, in fleet order, with repeated sub-values shared (one
 * pool per fleet). Hosts with the same aggregate membership then share one `aggregates` array
 * (aggregate-derived answers are cached by that identity), and a scan over the fleet touches far
 * less memory.
 */
function internHosts(hosts: readonly HostState[], laidOut: ReadonlySet<HostState>): HostState[] {
  const pool = new Map<string, unknown>();
  const shared = <T>(kind: string, value: T, key: string = JSON.stringify(value)): T => {
    const k = `${kind}\u0000${key}`;
    const hit = pool.get(k);
    if (hit !== undefined) return hit as T;
    pool.set(k, value);
    return value;
  };
  const sharedAggregates = (aggregates: Aggregate[]): Aggregate[] => {
    if (aggregates.length === 0) return EMPTY;
    const keys = aggregates.map(aggregateKey);
    const parts = aggregates.map((a, i) => shared('aggregate', a, keys[i]));
    return shared('aggregates', parts, keys.join('\u0001'));
  };
  return hosts.map((h) => {
    if (laidOut.has(h)) return h;
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
    return copy;
  });
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
