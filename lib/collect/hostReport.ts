/**
 * A hypervisor report (schema version 1) from the inventory: Nova's compute node, its zone and
 * aggregates, Placement's traits, inventories and allocation ratios, and the samples. Usage comes
 * from os-hypervisors when the microversion still has it (below 2.88), else from Placement's
 * usages; with neither, only the used figures are known (summed from the servers' flavors) and the
 * totals are left at 0, which the run summary reports as a problem.
 */
import type { CollectConfig } from './config.js';
import type { InventoryAggregate, InventoryHost, InventoryServer, PlacementData } from './ports.js';
import type { DataGap, Sample } from './samples.js';

export type UsageSource = 'nova' | 'placement' | 'flavors';

export interface HostReportInput {
  node: InventoryHost;
  servers: readonly InventoryServer[];
  aggregates: readonly InventoryAggregate[];
  placement: PlacementData | undefined;
  reportedAt: string;
  samples: Sample[];
  gaps: DataGap[];
  config: CollectConfig;
}

export function availabilityZoneOf(
  host: string,
  aggregates: readonly InventoryAggregate[],
  fallback: string,
) {
  const zones = aggregates
    .filter((a) => a.availabilityZone && a.hosts.includes(host))
    .map((a) => a.availabilityZone as string)
    .sort();
  return zones[0] ?? fallback;
}

export function hostReport(input: HostReportInput): { report: Record<string, unknown>; usage: UsageSource } {
  const { node, servers, placement } = input;
  const { usage, source } = usageOf(node, servers, placement);
  const ratios = placement?.inventories;
  const report: Record<string, unknown> = {
    host: node.host,
    nodename: node.nodename,
    uuid: node.id,
    availability_zone: availabilityZoneOf(
      node.host,
      input.aggregates,
      input.config.openstack.default_availability_zone,
    ),
    reported_at: input.reportedAt,
    hypervisor_type: node.hypervisorType,
    hypervisor_version: node.hypervisorVersion,
    hypervisor_hostname: node.nodename,
    host_ip: node.hostIp,
    cpu_info: node.cpuInfo,
    ...usage,
    ...(ratios?.VCPU ? { cpu_allocation_ratio: ratios.VCPU.allocation_ratio } : {}),
    ...(ratios?.MEMORY_MB ? { ram_allocation_ratio: ratios.MEMORY_MB.allocation_ratio } : {}),
    ...(ratios?.DISK_GB ? { disk_allocation_ratio: ratios.DISK_GB.allocation_ratio } : {}),
    aggregates: input.aggregates
      .filter((a) => a.hosts.includes(node.host))
      .map((a) => ({
        ...(a.uuid ? { uuid: a.uuid } : {}),
        name: a.name,
        // Each report names only its own host: the full member list would repeat per host.
        hosts: [node.host],
        metadata: a.availabilityZone ? { ...a.metadata, availability_zone: a.availabilityZone } : a.metadata,
      })),
    service: {
      disabled: node.status === 'disabled',
      up: node.state === 'up',
      disabled_reason: node.disabledReason,
    },
    instances: servers.map((s) => s.id),
    num_instances: node.usage?.runningVms ?? servers.length,
    ...(placement ? { traits: placement.traits, inventories: inventoriesOf(placement) } : {}),
    samples: input.samples,
    ...(input.gaps.length > 0 ? { gaps: input.gaps } : {}),
  };
  return { report, usage: source };
}

function usageOf(
  node: InventoryHost,
  servers: readonly InventoryServer[],
  placement: PlacementData | undefined,
) {
  if (node.usage) {
    const u = node.usage;
    return {
      source: 'nova' as const,
      usage: {
        vcpus_total: u.vcpus,
        vcpus_used: u.vcpusUsed,
        total_usable_ram_mb: u.memoryMb,
        free_ram_mb: u.freeRamMb,
        total_usable_disk_gb: u.localGb,
        free_disk_mb: u.freeDiskGb * 1024,
        disk_mb_used: u.localGbUsed * 1024,
      },
    };
  }
  const inv = placement?.inventories;
  const used = placement?.usages;
  if (inv?.VCPU && inv.MEMORY_MB && inv.DISK_GB && used) {
    // Nova's "used" memory includes the host's reserve; Placement keeps the reserve in the inventory.
    const ramUsed = (used.MEMORY_MB ?? 0) + inv.MEMORY_MB.reserved;
    const diskUsed = (used.DISK_GB ?? 0) + inv.DISK_GB.reserved;
    return {
      source: 'placement' as const,
      usage: {
        vcpus_total: inv.VCPU.total,
        vcpus_used: used.VCPU ?? 0,
        total_usable_ram_mb: inv.MEMORY_MB.total,
        free_ram_mb: inv.MEMORY_MB.total - ramUsed,
        total_usable_disk_gb: inv.DISK_GB.total,
        free_disk_mb: (inv.DISK_GB.total - diskUsed) * 1024,
        disk_mb_used: diskUsed * 1024,
      },
    };
  }
  const sum = (f: (s: InventoryServer) => number) => servers.reduce((n, s) => n + f(s), 0);
  return {
    source: 'flavors' as const,
    usage: {
      vcpus_used: sum((s) => s.flavor.vcpus),
      disk_mb_used: sum((s) => (s.bootFromVolume ? 0 : s.flavor.diskGb + s.flavor.ephemeralGb)) * 1024,
    },
  };
}

function inventoriesOf(placement: PlacementData) {
  return Object.fromEntries(
    Object.entries(placement.inventories).map(([rc, inv]) => [
      rc,
      { ...inv, used: placement.usages[rc] ?? 0 },
    ]),
  );
}
