import type { HostState } from '../../model/hostState.js';

/**
 * The host fields Placement's VCPU / MEMORY_MB / DISK_GB check and compute_status_filter read, one
 * typed array per field. Reading them in sequence instead of dereferencing 100k host objects (each
 * its own cache miss) is what keeps a request over a large fleet within a few milliseconds.
 * A null allocation ratio is stored as NaN (it then falls back to the configured initial ratio).
 */
export interface HostColumns {
  vcpusTotal: Float64Array;
  vcpusUsed: Float64Array;
  cpuRatio: Float64Array;
  ramTotal: Float64Array;
  ramFree: Float64Array;
  ramRatio: Float64Array;
  diskTotal: Float64Array;
  diskMbUsed: Float64Array;
  diskRatio: Float64Array;
  /** 1 when the host's nova-compute service is disabled. */
  disabled: Uint8Array;
}

export function buildColumns(hosts: readonly HostState[]): HostColumns {
  const n = hosts.length;
  const c: HostColumns = {
    vcpusTotal: new Float64Array(n),
    vcpusUsed: new Float64Array(n),
    cpuRatio: new Float64Array(n),
    ramTotal: new Float64Array(n),
    ramFree: new Float64Array(n),
    ramRatio: new Float64Array(n),
    diskTotal: new Float64Array(n),
    diskMbUsed: new Float64Array(n),
    diskRatio: new Float64Array(n),
    disabled: new Uint8Array(n),
  };
  for (let i = 0; i < n; i++) {
    const h = hosts[i];
    c.vcpusTotal[i] = h.vcpus_total;
    c.vcpusUsed[i] = h.vcpus_used;
    c.cpuRatio[i] = h.cpu_allocation_ratio ?? Number.NaN;
    c.ramTotal[i] = h.total_usable_ram_mb;
    c.ramFree[i] = h.free_ram_mb;
    c.ramRatio[i] = h.ram_allocation_ratio ?? Number.NaN;
    c.diskTotal[i] = h.total_usable_disk_gb;
    c.diskMbUsed[i] = h.disk_mb_used;
    c.diskRatio[i] = h.disk_allocation_ratio ?? Number.NaN;
    c.disabled[i] = h.service.disabled ? 1 : 0;
  }
  return c;
}
