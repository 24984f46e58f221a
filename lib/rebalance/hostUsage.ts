/**
 * A host's resources after a VM leaves or arrives, on copies (host states are shared and
 * immutable). Arrival is the engine's consume_from_request; both sides also keep `disk_mb_used`,
 * which the Placement pre-filter reads, in step, and a disk on shared storage takes no local disk.
 */
import type { SchedulerConfig } from '../config/options.js';
import { consumeFromRequest } from '../engine/consume.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';

export interface MovingInstance {
  uuid: string;
  flavor: { vcpus: number; memory_mb: number; root_gb: number; ephemeral_gb: number };
  shared_storage: boolean;
}

/** Local disk the instance occupies on its host, in MiB (root + ephemeral; none on shared storage). */
export function localDiskMb(vm: MovingInstance): number {
  return vm.shared_storage ? 0 : (vm.flavor.root_gb + vm.flavor.ephemeral_gb) * 1024;
}

/** The destination after the instance arrives. */
export function withInstanceAdded(
  host: HostState,
  vm: MovingInstance,
  spec: RequestSpec,
  config: SchedulerConfig,
): HostState {
  const next = consumeFromRequest(host, spec, vm.uuid, config);
  const disk = localDiskMb(vm);
  // The VM really lives here after the move: server-group filters of later moves must count it.
  const instances = Object.hasOwn(next.instances, vm.uuid)
    ? next.instances
    : { ...next.instances, [vm.uuid]: { uuid: vm.uuid } };
  return {
    ...next,
    instances,
    free_disk_mb: host.free_disk_mb - disk,
    disk_mb_used: host.disk_mb_used + disk,
  };
}

/** The source after the instance leaves. */
export function withInstanceRemoved(host: HostState, vm: MovingInstance): HostState {
  const { [vm.uuid]: _gone, ...instances } = host.instances;
  const disk = localDiskMb(vm);
  return {
    ...host,
    free_ram_mb: host.free_ram_mb + vm.flavor.memory_mb,
    free_disk_mb: host.free_disk_mb + disk,
    disk_mb_used: Math.max(0, host.disk_mb_used - disk),
    vcpus_used: Math.max(0, host.vcpus_used - vm.flavor.vcpus),
    num_instances: Math.max(0, host.num_instances - 1),
    instances,
  };
}
