import type { NumaCell, NumaTopology } from '../../model/hostState.js';
import type { InstanceNumaTopology } from '../../model/requestSpec.js';
import { siblingSets } from './cpuPinning.js';
import type { CellFit } from './numaCell.js';

/**
 * Nova's `numa_usage_from_instance_numa` (adding, not freeing): a new host topology with each guest
 * cell's memory, shared CPUs, pages and pinned CPUs added to the host cell it was fitted to. Host
 * cells the guest does not use are shared with the input, which is never changed.
 */
export function addInstanceUsage(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  fits: readonly CellFit[],
): NumaTopology {
  return {
    ...host,
    cells: host.cells.map((cell) => {
      const i = fits.findIndex((f) => f.hostCellId === cell.id);
      return i < 0 ? cell : addCellUsage(cell, instance.cells[i], fits[i]);
    }),
  };
}

function addCellUsage(cell: NumaCell, guest: InstanceNumaTopology['cells'][number], fit: CellFit): NumaCell {
  const next: NumaCell = {
    ...cell,
    memory_usage: cell.memory_usage + guest.memory,
    cpu_usage: cell.cpu_usage + guest.cpuset.length,
  };
  if (fit.pagesize > 0) {
    next.mempages = cell.mempages.map((p) =>
      p.size_kb === fit.pagesize ? { ...p, used: p.used + (guest.memory * 1024) / p.size_kb } : p,
    );
  }
  if (fit.pinned.length > 0) {
    const pins = new Set(cell.pinned_cpus);
    for (const cpu of pinnedWithSiblings(cell, fit.pinned, guest.cpu_thread_policy === 'isolate'))
      pins.add(cpu);
    next.pinned_cpus = [...pins].sort((a, b) => a - b);
  }
  return next;
}

/** `isolate` consumes the whole core of every pinned CPU (Nova's `pin_cpus_with_siblings`). */
function pinnedWithSiblings(cell: NumaCell, pinned: readonly number[], isolate: boolean): readonly number[] {
  if (!isolate) return pinned;
  const dedicated = new Set(cell.pcpuset);
  const wanted = new Set(pinned);
  const out: number[] = [];
  for (const core of siblingSets(cell)) {
    if (core.some((c) => wanted.has(c))) for (const c of core) if (dedicated.has(c)) out.push(c);
  }
  return out;
}
