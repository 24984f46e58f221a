import { type NumaLimits, placeInstance } from '../../../lib/engine/hardware/numa.js';
import { addInstanceUsage } from '../../../lib/engine/hardware/numaUsage.js';
import type { NumaCell, NumaTopology, PciPool } from '../../../lib/model/hostState.js';
import type { InstanceNumaCell, InstanceNumaTopology, PciRequest } from '../../../lib/model/requestSpec.js';

/** CPU ids from..from+n-1. */
export function cpus(from: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}

/** A host NUMA cell: 4 shared CPUs, 4 GiB, no pinning, no page pools unless overridden. */
export function hostCell(id: number, over: Partial<NumaCell> = {}): NumaCell {
  return {
    id,
    cpuset: cpus(id * 4, 4),
    pcpuset: [],
    memory: 4096,
    cpu_usage: 0,
    memory_usage: 0,
    pinned_cpus: [],
    siblings: [],
    mempages: [],
    ...over,
  };
}

/** A host NUMA cell with `n` dedicated CPUs starting at `from`, each its own core unless `threads` > 1. */
export function pinningCell(
  id: number,
  from: number,
  n: number,
  threads = 1,
  over: Partial<NumaCell> = {},
): NumaCell {
  const pcpuset = cpus(from, n);
  const siblings: number[][] = [];
  for (let i = 0; i < n; i += threads) siblings.push(pcpuset.slice(i, i + threads));
  return hostCell(id, { cpuset: [], pcpuset, siblings, ...over });
}

export function host(...cells: NumaCell[]): NumaTopology {
  return { cells };
}

/** A guest cell with `shared` floating CPUs and 1 GiB unless overridden. */
export function guestCell(id: number, over: Partial<InstanceNumaCell> = {}): InstanceNumaCell {
  return { id, cpuset: cpus(id * 2, 2), pcpuset: [], memory: 1024, ...over };
}

/** A guest cell with `n` dedicated CPUs. */
export function pinnedGuestCell(
  id: number,
  n: number,
  over: Partial<InstanceNumaCell> = {},
): InstanceNumaCell {
  return guestCell(id, { cpuset: [], pcpuset: cpus(id * n, n), ...over });
}

export function guest(...cells: InstanceNumaCell[]): InstanceNumaTopology {
  return { cells };
}

export function pool(over: Partial<PciPool> = {}): PciPool {
  return { vendor_id: '8086', product_id: '1520', count: 1, ...over };
}

export function pciRequest(over: Partial<PciRequest> = {}): PciRequest {
  return { count: 1, spec: [{ vendor_id: '8086', product_id: '1520' }], ...over };
}

/** Deep-freezes a value, so a test fails if the code under test mutates its input. */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

/** The host topology after placing the guest, usage added (a new object), or null when it does not fit. */
export function fitInstanceToHost(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  limits: NumaLimits | null,
): NumaTopology | null {
  const fits = placeInstance(host, instance, limits);
  return fits ? addInstanceUsage(host, instance, fits) : null;
}
