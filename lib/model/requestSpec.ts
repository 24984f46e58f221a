/**
 * A scheduling request with the field names of Nova's RequestSpec (`nova/objects/request_spec.py`).
 */

export interface Flavor {
  name: string;
  vcpus: number;
  memory_mb: number;
  root_gb: number;
  ephemeral_gb: number;
  /** Swap in MiB, as in Nova. */
  swap: number;
  extra_specs: Record<string, string>;
}

export interface Image {
  id: string | null;
  /** Already canonicalised with Nova's ImageMetaProps rules (legacy names renamed). */
  properties: Record<string, string>;
  disk_format?: string | null;
}

export interface InstanceGroup {
  name?: string;
  uuid?: string;
  policy: 'affinity' | 'anti-affinity' | 'soft-affinity' | 'soft-anti-affinity';
  members: string[];
  /** Hosts of the group's existing members; grows with this request's picks. */
  hosts: string[];
  rules: Record<string, string>;
}

export interface RequestedDestination {
  host?: string | null;
  node?: string | null;
  cell?: string | null;
  /** Placement member_of groups: each entry is a comma-separated "any of" list; entries are ANDed. */
  aggregates?: string[];
  forbidden_aggregates?: string[];
  allow_cross_cell_move?: boolean;
}

/** A guest NUMA cell request (from `hw:numa_*` / `hw:cpu_*` extra specs). */
export interface InstanceNumaCell {
  id: number;
  cpuset: number[];
  pcpuset: number[];
  memory: number;
  /** Page size in KiB, or Nova's symbolic sizes: -1 small, -2 large, -3 any. */
  pagesize?: number | null;
  cpu_thread_policy?: 'prefer' | 'isolate' | 'require' | null;
}

export interface InstanceNumaTopology {
  cells: InstanceNumaCell[];
}

export interface PciRequest {
  count: number;
  spec: Record<string, string>[];
  alias_name?: string;
  numa_policy?: 'required' | 'preferred' | 'legacy' | 'socket' | null;
}

export interface RequestSpec {
  /** A request id for explanations and per-request caches; Nova's global request id. */
  request_id: string;
  flavor: Flavor;
  image: Image | null;
  /** Hints are lists of strings, as Nova stores them. */
  scheduler_hints: Record<string, string[]>;
  availability_zone: string | null;
  instance_group: InstanceGroup | null;
  project_id: string | null;
  user_id: string | null;
  instance_uuid: string | null;
  /** Uuids for a multi-create; when absent, `num_instances` synthetic uuids are used. */
  instance_uuids: string[] | null;
  num_instances: number;
  ignore_hosts: string[];
  force_hosts: string[];
  force_nodes: string[];
  requested_destination: RequestedDestination | null;
  numa_topology: InstanceNumaTopology | null;
  pci_requests: PciRequest[];
  is_bfv: boolean;
  /** Instance metadata, for filters that read it (e.g. the compute-variant filter). */
  instance_metadata: Record<string, string>;
}

/** Nova's `spec.get_scheduler_hint`: a single-element list unwraps to its element. */
export function schedulerHint(spec: RequestSpec, name: string): string | string[] | undefined {
  const value = spec.scheduler_hints[name];
  if (Array.isArray(value) && value.length === 1) return value[0];
  return value;
}

/** True when Nova would treat the request as a rebuild (`_nova_check_type == ['rebuild']`). */
export function isRebuild(spec: RequestSpec): boolean {
  const t = spec.scheduler_hints._nova_check_type;
  return Array.isArray(t) && t.length === 1 && t[0] === 'rebuild';
}
