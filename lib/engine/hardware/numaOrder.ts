import type { NumaCell, NumaTopology, PciStats } from '../../model/hostState.js';
import type { InstanceNumaTopology, PciRequest } from '../../model/requestSpec.js';
import { cpuPolicy, freeDedicated } from './numaCell.js';

/** Nova's `[compute] packing_host_numa_cells_allocation_strategy`: false (spread) is the default. */
export type NumaPacking = 'spread' | 'pack';

/**
 * Nova's host cell order, used only when the host has more cells than the guest: spread puts the
 * emptiest cells first (free memory, then shared CPU usage or free dedicated CPUs), pack the
 * fullest; then cells with more free PCI devices go first when PCI is requested, last otherwise.
 */
export function orderedHostCells(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  pciRequests: readonly PciRequest[],
  pciStats: PciStats | null,
  packing: NumaPacking,
): NumaCell[] {
  const cells = host.cells.slice();
  if (cells.length <= instance.cells.length) return cells;
  const spread = packing === 'spread';
  // Successive stable sorts, as Nova's sorted() calls: the last is the primary key, earlier ones break ties.
  const by = (key: (c: NumaCell) => number, descending: boolean) =>
    cells.sort((a, b) => (descending ? key(b) - key(a) : key(a) - key(b)));
  by((c) => c.memory - c.memory_usage, spread);
  if (cpuPolicy(instance.cells[0]) === 'shared') by((c) => c.cpu_usage, !spread);
  else by(freeDedicated, spread);
  if (pciStats) {
    const devices = new Map<number, number>();
    for (const p of pciStats.pools)
      if (typeof p.numa_node === 'number')
        devices.set(p.numa_node, (devices.get(p.numa_node) ?? 0) + p.count);
    by((c) => devices.get(c.id) ?? 0, pciRequests.length > 0);
  }
  return cells;
}
