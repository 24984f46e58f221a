/**
 * What each host holds: the VMs on it plus those migrating to it (Nova claims the destination's
 * resources for the whole live migration, while the source keeps them until it ends). Shared by the
 * agents' host reports and the constraint checks, so both see the same accounting.
 */
import type { Layout } from './layout.js';

export interface HostUsage {
  vcpus: number;
  ramMb: number;
  /** Local disks only (shared storage uses none). */
  diskGb: number;
  /** VMs on the host (not those arriving). */
  vms: number[];
  /** VMs arriving by live migration. */
  arriving: number[];
}

/** `arrivals` lists in-flight migrations as [vm, destination host]. */
export function hostUsage(
  layout: Layout,
  hostOf: ArrayLike<number>,
  arrivals: Iterable<readonly [number, number]>,
): HostUsage[] {
  const usage = layout.hosts.map((): HostUsage => ({ vcpus: 0, ramMb: 0, diskGb: 0, vms: [], arriving: [] }));
  const add = (vm: number, h: number) => {
    const v = layout.vms[vm];
    const u = usage[h];
    u.vcpus += v.flavor.vcpus;
    u.ramMb += v.flavor.ram_mb;
    if (v.localDisk) u.diskGb += v.flavor.disk_gb;
  };
  for (let vm = 0; vm < layout.vms.length; vm++) {
    add(vm, hostOf[vm]);
    usage[hostOf[vm]].vms.push(vm);
  }
  for (const [vm, dest] of arrivals) {
    add(vm, dest);
    usage[dest].arriving.push(vm);
  }
  return usage;
}
