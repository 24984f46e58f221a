/**
 * An instance report (schema version 1) from a Nova server: placement, flavor, zone, role, its
 * server group and its samples; the integration hints (Kubernetes node, Consul) from its metadata
 * only under `inventory.trust_server_metadata` (agents find both for themselves).
 */
import type { CollectConfig } from './config.js';
import type { InventoryServer, InventoryServerGroup } from './ports.js';
import type { DataGap, Sample } from './samples.js';

export interface InstanceReportInput {
  server: InventoryServer & { host: string; nodename: string };
  hostZone: string;
  /** The cluster of its Kubernetes node (kubernetesCluster.ts); null: none named. */
  kubernetesCluster: string | null;
  group: InventoryServerGroup | undefined;
  lastMigratedAt: string | null;
  reportedAt: string;
  samples: Sample[];
  gaps: DataGap[];
  config: CollectConfig;
}

export function instanceReport(input: InstanceReportInput): Record<string, unknown> {
  const { server: s, config } = input;
  const inv = config.inventory;
  // Tenant-writable: only where the operator trusts every project (config.ts).
  const hint = (key: string | null) => (inv.trust_server_metadata ? metadata(s, key) : undefined);
  const consulNode = hint(inv.consul_node_metadata_key);
  const consulAddress = hint(inv.consul_address_metadata_key);
  const kubernetesNode = hint(inv.kubernetes_node_metadata_key);
  return {
    uuid: s.id,
    name: s.name,
    host: s.host,
    nodename: s.nodename,
    // Nova sets the server's zone when it is scheduled; the host's zone covers older records.
    availability_zone: s.availabilityZone || input.hostZone,
    role: roleOf(s, inv.role_metadata_key, inv.role_tag_prefix),
    flavor: {
      name: s.flavor.name,
      vcpus: s.flavor.vcpus,
      memory_mb: s.flavor.ramMb,
      root_gb: s.flavor.diskGb,
      ephemeral_gb: s.flavor.ephemeralGb,
      swap: s.flavor.swapMb,
    },
    shared_storage:
      inv.shared_storage === 'always' || (inv.shared_storage === 'boot_from_volume' && s.bootFromVolume),
    server_group: input.group ? { name: input.group.name, policy: input.group.policy } : null,
    kubernetes_node: kubernetesNode ?? null,
    // Only beside a node: the field names the cluster of kubernetes_node.
    ...(kubernetesNode && input.kubernetesCluster ? { kubernetes_cluster: input.kubernetesCluster } : {}),
    consul: consulNode && consulAddress ? { node: consulNode, address: consulAddress } : null,
    last_migrated_at: input.lastMigratedAt,
    reported_at: input.reportedAt,
    samples: input.samples,
    ...(input.gaps.length > 0 ? { gaps: input.gaps } : {}),
  };
}

export function roleOf(
  server: InventoryServer,
  metadataKey: string | null,
  tagPrefix: string | null,
): string | null {
  const fromMetadata = metadata(server, metadataKey);
  if (fromMetadata) return fromMetadata;
  if (tagPrefix === null) return null;
  const tag = server.tags.find((t) => t.startsWith(tagPrefix) && t.length > tagPrefix.length);
  return tag ? tag.slice(tagPrefix.length) : null;
}

function metadata(server: InventoryServer, key: string | null): string | undefined {
  if (key === null) return undefined;
  const value = server.metadata[key];
  return value === undefined || value === '' ? undefined : value;
}
