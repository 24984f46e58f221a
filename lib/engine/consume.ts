import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { numaLimitsFor, numaPacking, placeInstance } from './hardware/numa.js';
import { addInstanceUsage } from './hardware/numaUsage.js';
import { applyRequests, pciNuma } from './hardware/pci.js';

const DEFAULT_CONFIG = defaultConfig();

/**
 * Nova's `consume_from_request` plus the host side of `_consume_selected_host`, on a copy of the
 * host (the fleet snapshot is shared by many requests and must not change). `config` gives the
 * allocation ratios for the NUMA fit; pass the scheduler's so they match NUMATopologyFilter's.
 *
 * With a server group, the new instance is added to `host.instances` as a stub (unless the host
 * already lists it), so the (anti-)affinity filters and weighers count it for later instances;
 * without one Nova adds nothing.
 */
export function consumeFromRequest(
  host: HostState,
  spec: RequestSpec,
  instanceUuid: string,
  config: SchedulerConfig = DEFAULT_CONFIG,
): HostState {
  const f = spec.flavor;
  const next: HostState = {
    ...host,
    free_ram_mb: host.free_ram_mb - f.memory_mb,
    // Nova subtracts root + ephemeral only; swap is not consumed here.
    free_disk_mb: host.free_disk_mb - (f.root_gb + f.ephemeral_gb) * 1024,
    vcpus_used: host.vcpus_used + f.vcpus,
    num_instances: host.num_instances + 1,
    num_io_ops: host.num_io_ops + 1,
    instances:
      spec.instance_group && !Object.hasOwn(host.instances, instanceUuid)
        ? { ...host.instances, [instanceUuid]: { uuid: instanceUuid } }
        : host.instances,
  };
  const pciStats = spec.pci_requests.length > 0 ? host.pci_stats : null;
  // Nova swallows failures here (the host keeps its old topology and pools); so do we.
  let guestCells: number[] | null = null;
  if (host.numa_topology && spec.numa_topology) {
    const limits = numaLimitsFor(host, config);
    const fits = placeInstance(
      host.numa_topology,
      spec.numa_topology,
      limits,
      spec.pci_requests,
      pciStats,
      numaPacking(config),
    );
    if (fits) {
      next.numa_topology = addInstanceUsage(host.numa_topology, spec.numa_topology, fits);
      guestCells = fits.map((fit) => fit.hostCellId);
    }
  }
  if (pciStats) {
    // The devices come from the guest's NUMA nodes when its numa_policy asks for that.
    const numa = guestCells ? pciNuma(guestCells, host.numa_topology) : null;
    const applied = applyRequests(pciStats, spec.pci_requests, numa);
    if (applied) next.pci_stats = applied;
  }
  return next;
}
