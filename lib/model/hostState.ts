/**
 * A compute node as the scheduler sees it, with the field names of Nova's HostState
 * (`nova/scheduler/host_manager.py`), so operators can feed real data unchanged.
 */

export interface Aggregate {
  /** Placement uses uuids for member_of; when absent the name stands in. */
  uuid?: string;
  name: string;
  hosts: string[];
  metadata: Record<string, string>;
}

export interface ServiceState {
  disabled: boolean;
  /** Liveness as computed by the servicegroup driver (heartbeat within service_down_time). */
  up: boolean;
  forced_down?: boolean;
  disabled_reason?: string | null;
  last_seen_up?: string | null;
  /**
   * Set when `last_seen_up` is a collector report rather than Nova's own heartbeat: the report
   * vouches for the host until the next one is due, so `service_down_time` counts from then.
   */
  report_interval_seconds?: number;
  /**
   * True when the input gave no service record: the host counts as enabled and up, but Nova's
   * HostState would have no service, so JsonFilter reads `$service` as None.
   */
  assumed?: boolean;
}

/**
 * Every host state's `limits`: one frozen empty object, so a plug-in that writes to it, as a Nova
 * filter would, fails naming itself instead of changing every request's hosts.
 */
export const NO_LIMITS: Record<string, unknown> = Object.freeze({});

/** The service of a host given without one. */
export const ASSUMED_SERVICE: ServiceState = Object.freeze({ disabled: false, up: true, assumed: true });

export interface MonitorMetric {
  name: string;
  /** Absent for a metric that only carries per-NUMA-node values (Nova's `numa.membw.*`). */
  value?: number;
  numa_membw_values?: Record<string, number>;
  source?: string;
  timestamp?: string;
}

/** One instance on a host; only what filters and weighers read. */
export interface InstanceOnHost {
  uuid: string;
  /** Image properties of the instance's image (ImagePropertiesWeigher). */
  image_properties?: Record<string, string>;
  [key: string]: unknown;
}

/** A Placement inventory for a resource class beyond VCPU / MEMORY_MB / DISK_GB (e.g. PCPU, CUSTOM_*). */
export interface Inventory {
  total: number;
  used: number;
  reserved?: number;
  allocation_ratio?: number;
  min_unit?: number;
  max_unit?: number;
  step_size?: number;
}

export interface NumaCell {
  id: number;
  /** Shared (floating) CPU ids in this cell. */
  cpuset: number[];
  /** Dedicated (pinnable) CPU ids in this cell. */
  pcpuset: number[];
  /** Memory in MiB. */
  memory: number;
  cpu_usage: number;
  memory_usage: number;
  pinned_cpus: number[];
  /** Sibling sets (hyper-threads), each a list of CPU ids. */
  siblings: number[][];
  /** Huge-page pools: size in KiB, total and used page counts. */
  mempages: { size_kb: number; total: number; used: number; reserved?: number }[];
  /** The socket the cell is on; only the PCI `socket` NUMA policy reads it. */
  socket?: number | null;
}

export interface NumaTopology {
  cells: NumaCell[];
}

export interface PciPool {
  vendor_id: string;
  product_id: string;
  count: number;
  numa_node?: number | null;
  physical_network?: string | null;
  dev_type?: string;
  tags?: Record<string, string>;
}

export interface PciStats {
  pools: PciPool[];
}

export type StatValue = string | { [key: string]: unknown };

export interface HostState {
  host: string;
  nodename: string;
  uuid: string;
  cell_uuid: string | null;
  free_ram_mb: number;
  total_usable_ram_mb: number;
  free_disk_mb: number;
  total_usable_disk_gb: number;
  disk_mb_used: number;
  vcpus_total: number;
  vcpus_used: number;
  cpu_allocation_ratio: number | null;
  ram_allocation_ratio: number | null;
  disk_allocation_ratio: number | null;
  aggregates: Aggregate[];
  instances: Record<string, InstanceOnHost>;
  num_instances: number;
  num_io_ops: number;
  failed_builds: number;
  metrics: MonitorMetric[];
  service: ServiceState;
  hypervisor_type: string | null;
  hypervisor_version: number | null;
  hypervisor_hostname: string | null;
  supported_instances: [string, string, string][];
  /** A JSON string, as in Nova; filters parse it. */
  cpu_info: string | null;
  host_ip: string | null;
  /** Nova's stats are strings; a dict value (nested capabilities) is kept for ComputeCapabilitiesFilter. */
  stats: Record<string, StatValue>;
  numa_topology: NumaTopology | null;
  pci_stats: PciStats | null;
  availability_zone: string | null;
  traits: string[];
  /** Extra Placement inventories, keyed by resource class. */
  inventories: Record<string, Inventory>;
  /** Anything else the operator supplies (ComputeCapabilitiesFilter and JsonFilter can read it). */
  extra: Record<string, unknown>;
  /**
   * Nova's `limits`, which its resource filters fill in: Placid's never do (host states are shared
   * by every request), so every host has NO_LIMITS.
   */
  limits: Record<string, unknown>;
}

/** The fields that HostState knows; anything else in input lands in `extra`. */
export const HOST_STATE_FIELDS = new Set<string>([
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
  'extra',
  'limits',
]);

/**
 * Looks up an attribute the way Nova's `getattr(host_state, name)` would: a HostState field
 * first, then operator-supplied extras. Returns undefined when neither has it.
 */
export function hostAttribute(host: HostState, name: string): unknown {
  // A host given without a service has None there in Nova, whatever Placid assumes for ComputeFilter.
  if (name === 'service' && host.service.assumed) return null;
  if (HOST_STATE_FIELDS.has(name) && name !== 'extra')
    return (host as unknown as Record<string, unknown>)[name];
  return Object.hasOwn(host.extra, name) ? host.extra[name] : undefined;
}
