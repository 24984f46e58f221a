import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { fitInstanceToHost } from './hardware/numa.js';
import { applyRequests } from './hardware/pci.js';

/**
 * Nova's `consume_from_request` plus the bookkeeping of `_consume_selected_host`, on a copy of the
 * host (the fleet snapshot is shared by many requests and must not change).
 */
export function consumeFromRequest(host: HostState, spec: RequestSpec, instanceUuid: string): HostState {
  const f = spec.flavor;
  const next: HostState = {
    ...host,
    free_ram_mb: host.free_ram_mb - f.memory_mb,
    // Nova subtracts root + ephemeral only; swap is not consumed here.
    free_disk_mb: host.free_disk_mb - (f.root_gb + f.ephemeral_gb) * 1024,
    vcpus_used: host.vcpus_used + f.vcpus,
    num_instances: host.num_instances + 1,
    num_io_ops: host.num_io_ops + 1,
    instances: { ...host.instances, [instanceUuid]: { uuid: instanceUuid } },
    limits: { ...host.limits },
  };
  // Nova swallows failures here (the host keeps its old topology); so do we.
  if (host.numa_topology && spec.numa_topology) {
    const fitted = fitInstanceToHost(host.numa_topology, spec.numa_topology, {
      cpu_allocation_ratio: host.cpu_allocation_ratio ?? 1,
      ram_allocation_ratio: host.ram_allocation_ratio ?? 1,
    });
    if (fitted) next.numa_topology = fitted;
  }
  if (spec.pci_requests.length > 0 && host.pci_stats) {
    const applied = applyRequests(host.pci_stats, spec.pci_requests);
    if (applied) next.pci_stats = applied;
  }
  return next;
}
