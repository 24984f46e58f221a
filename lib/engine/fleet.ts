import type { HostState } from '../model/hostState.js';
import { SharedMemberships } from '../model/memberships.js';
import { MembershipFacts } from './aggregates.js';
import {
  type AggregateIndex,
  indexAggregates,
  indexNames,
  indexTraits,
  type NameIndex,
  type TraitIndex,
} from './fleetIndex.js';

/**
 * Host states with what the engine needs to know about them, built once per fleet: hosts numbered
 * by aggregate membership and trait set (the pre-filter decides its aggregate and trait rules once
 * per group), host names (and, when first asked, lower-cased host and node names), and the
 * aggregate metadata keys in use. A fleet kept for many decisions is laid out (`from`), one for a
 * single decision takes its hosts as they are (`of`). Hosts with the same aggregate membership
 * share one `aggregates` array when laid out or read by parseHostStates, so aggregate-derived
 * answers (AZ, metadata, multiplier overrides) are computed once per distinct membership. Hosts are
 * treated as immutable: a changed host is a new object (consumption copies, see consume.ts), and a
 * changed fleet is a new Fleet.
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

  private constructor(
    readonly hosts: readonly HostState[],
    /** What each aggregate membership says (metadata, zones, multipliers), as decisions ask. */
    readonly memberships = new MembershipFacts(),
  ) {
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
   * The fleet of `hosts`, each copied into one layout, for a fleet kept for many decisions (a
   * snapshot, the planner's); hosts of `previous` (a snapshot refresh's unchanged hosts) are taken
   * as they are, so one copy of each host lives on.
   */
  static from(hosts: readonly HostState[] | Fleet, previous?: Fleet): Fleet {
    if (hosts instanceof Fleet) return hosts;
    return new Fleet(internHosts(hosts, new Set(previous?.hosts)));
  }

  /**
   * The fleet of `hosts` taken as they are, for one decision over hosts brought with it (`placid
   * schedule --hosts`, a request that carries its hosts). Laying hosts out pays back over many
   * decisions, not over one: it was about 120 ms of CPU in `placid schedule` over 20k hosts. Hosts
   * read by parseHostStates share their memberships already, which is what aggregate answers need.
   */
  static of(hosts: readonly HostState[] | Fleet): Fleet {
    return hosts instanceof Fleet ? hosts : new Fleet(hosts);
  }

  /**
   * The fleet of some of this fleet's hosts (an advisory request's candidates), taken as they are:
   * they are laid out already, so nothing is copied. A host may be replaced by a shallow copy of
   * itself (its sub-values, aggregates included, still this fleet's).
   */
  among(hosts: readonly HostState[]): Fleet {
    return new Fleet(hosts, this.memberships);
  }
}

/**
 * Copies every host into one object shape, in fleet order, with repeated sub-values shared
 * (memberships as parseHostStates shares them, the rest in one trie per fleet). Hosts with the same
 * aggregate membership then share one `aggregates` array (aggregate-derived answers are cached by
 * that identity), and a scan over the fleet touches far less memory.
 */
function internHosts(hosts: readonly HostState[], laidOut: ReadonlySet<HostState>): HostState[] {
  const memberships = new SharedMemberships();
  const services: Trie = {};
  const platforms: Trie = {};
  const platformLists: Trie = {};
  const traitLists: Trie = {};
  const cpuInfos: Trie = {};
  const sharedPlatforms = (list: HostState['supported_instances']) => {
    let node = platformLists;
    for (const p of list) node = at(node, shared(platforms, p, p));
    node.value ??= list.map((p) => shared(platforms, p, p));
    return node.value as HostState['supported_instances'];
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
      aggregates: memberships.share(h.aggregates),
      instances: h.instances,
      num_instances: h.num_instances,
      num_io_ops: h.num_io_ops,
      failed_builds: h.failed_builds,
      metrics: h.metrics,
      service: sharedService(services, h.service),
      hypervisor_type: h.hypervisor_type,
      hypervisor_version: h.hypervisor_version,
      hypervisor_hostname: h.hypervisor_hostname,
      supported_instances: sharedPlatforms(h.supported_instances),
      cpu_info: h.cpu_info === null ? null : sharedString(cpuInfos, h.cpu_info),
      host_ip: h.host_ip,
      stats: h.stats,
      numa_topology: h.numa_topology,
      pci_stats: h.pci_stats,
      availability_zone: h.availability_zone,
      traits: shared(traitLists, h.traits, h.traits),
      inventories: h.inventories,
      extra: h.extra,
      limits: h.limits,
    };
    return copy;
  });
}

/**
 * Shared values by their parts, compared by identity (strings and numbers by value): a trie of
 * Maps, so no key string is built and hashed per host (that was most of laying out 20k hosts).
 */
interface Trie {
  next?: Map<unknown, Trie>;
  value?: unknown;
}

function at(node: Trie, part: unknown): Trie {
  node.next ??= new Map();
  let child = node.next.get(part);
  if (child === undefined) {
    child = {};
    node.next.set(part, child);
  }
  return child;
}

/** The first value seen with these `parts` (any part that differs makes a value of its own). */
function shared<T>(root: Trie, parts: readonly unknown[], value: T): T {
  let node = root;
  for (const part of parts) node = at(node, part);
  node.value ??= value;
  return node.value as T;
}

function sharedString(root: Trie, text: string): string {
  const node = at(root, text);
  node.value ??= text;
  return node.value as string;
}

// Every ServiceState field must be a part, or hosts with different services share one record.
function sharedService(root: Trie, s: HostState['service']): HostState['service'] {
  let node = at(at(at(root, s.disabled), s.up), s.forced_down);
  node = at(at(at(node, s.assumed), s.report_interval_seconds), s.disabled_reason);
  node = at(node, s.last_seen_up);
  node.value ??= s;
  return node.value as HostState['service'];
}
