import type { NumaCell } from '../../model/hostState.js';
import type { InstanceNumaCell } from '../../model/requestSpec.js';
import { packOntoCores } from './cpuPinning.js';
import { fitMemory, NO_FIT } from './numaMemory.js';

/** Nova's NUMATopologyLimits without network metadata. */
export interface NumaLimits {
  cpu_allocation_ratio: number;
  ram_allocation_ratio: number;
}

/** How one guest cell landed on one host cell: what consumption must add to that host cell. */
export interface CellFit {
  hostCellId: number;
  /** The page size (KiB) the guest memory is counted in; 0 when the host cell has no page pools. */
  pagesize: number;
  /** Host CPUs pinned for the guest's dedicated CPUs (whole cores for `isolate`). */
  pinned: number[];
}

/** Receives why a guest cell does not fit: what the guest needs and what the host cell has. */
export type MissReport = (need: string, have: string) => void;

export type CpuPolicy = 'shared' | 'dedicated' | 'mixed';

/**
 * Nova's cell `cpu_policy`, read from which CPU sets the guest cell has: dedicated cells have only
 * pinned CPUs, mixed cells have both, shared cells only floating ones (that is how Nova builds them).
 */
export function cpuPolicy(cell: InstanceNumaCell): CpuPolicy {
  if (cell.pcpuset.length === 0) return 'shared';
  return cell.cpuset.length === 0 ? 'dedicated' : 'mixed';
}

/**
 * Nova's `_numa_fit_instance_cell`: whether a guest cell fits a host cell as the host is now, and
 * if so where. `limits` null skips the shared CPU/RAM overcommit limits, as Nova does.
 */
export function fitCell(
  host: NumaCell,
  guest: InstanceNumaCell,
  limits: NumaLimits | null,
  report?: MissReport,
): CellFit | null {
  const policy = cpuPolicy(guest);
  const pinned = policy !== 'shared';
  const pagesize = fitMemory(host, guest, pinned, report);
  if (pagesize === NO_FIT) return null;
  // Neither CPU kind may overcommit against the guest itself.
  if (pinned && guest.pcpuset.length > host.pcpuset.length) {
    report?.(
      `guest cell ${guest.id} needs ${guest.pcpuset.length} dedicated CPUs`,
      `host cell ${host.id} has ${host.pcpuset.length} in total`,
    );
    return null;
  }
  if (guest.cpuset.length > host.cpuset.length) {
    report?.(
      `guest cell ${guest.id} needs ${guest.cpuset.length} shared CPUs`,
      `host cell ${host.id} has ${host.cpuset.length} in total`,
    );
    return null;
  }
  let pins: number[] = [];
  if (pinned) {
    const free = freeDedicated(host);
    if (guest.pcpuset.length > free) {
      report?.(
        `guest cell ${guest.id} needs ${guest.pcpuset.length} dedicated CPUs`,
        `host cell ${host.id} has ${free} free`,
      );
      return null;
    }
    // Pinned guests never overcommit memory, whatever page size they use (Nova's avail_memory check).
    if (guest.memory > host.memory - host.memory_usage) {
      report?.(
        `guest cell ${guest.id} needs ${guest.memory} MiB for pinned CPUs`,
        `host cell ${host.id} has ${host.memory - host.memory_usage} MiB free`,
      );
      return null;
    }
    const packed = packOntoCores(host, guest, report);
    if (!packed) return null;
    pins = packed;
  }
  if (policy !== 'dedicated' && limits && !withinSharedLimits(host, guest, limits, report)) return null;
  return { hostCellId: host.id, pagesize, pinned: pins };
}

function withinSharedLimits(
  host: NumaCell,
  guest: InstanceNumaCell,
  limits: NumaLimits,
  report?: MissReport,
): boolean {
  const cpuLimit = host.cpuset.length * limits.cpu_allocation_ratio;
  if (host.cpu_usage + guest.cpuset.length > cpuLimit) {
    report?.(
      `guest cell ${guest.id} needs ${guest.cpuset.length} shared CPUs`,
      `host cell ${host.id} has ${host.cpu_usage} of ${cpuLimit} in use (${host.cpuset.length} CPUs × cpu_allocation_ratio ${limits.cpu_allocation_ratio})`,
    );
    return false;
  }
  const ramLimit = host.memory * limits.ram_allocation_ratio;
  if (host.memory_usage + guest.memory > ramLimit) {
    report?.(
      `guest cell ${guest.id} needs ${guest.memory} MiB`,
      `host cell ${host.id} has ${host.memory_usage} of ${ramLimit} MiB in use (${host.memory} MiB × ram_allocation_ratio ${limits.ram_allocation_ratio})`,
    );
    return false;
  }
  return true;
}

/** Nova's `avail_pcpus`: dedicated CPUs not pinned yet. */
export function freeDedicated(host: NumaCell): number {
  if (host.pinned_cpus.length === 0) return host.pcpuset.length;
  const pinned = new Set(host.pinned_cpus);
  let n = 0;
  for (const c of host.pcpuset) if (!pinned.has(c)) n++;
  return n;
}
