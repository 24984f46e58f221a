import type { SchedulerConfig } from '../../config/options.js';
import type { HostState, NumaTopology, PciStats } from '../../model/hostState.js';
import type { InstanceNumaTopology, PciRequest } from '../../model/requestSpec.js';
import { allocationRatio } from '../ratios.js';
import { cellHasThreads } from './cpuPinning.js';
import { type CellFit, fitCell, type NumaLimits } from './numaCell.js';
import { type NumaPacking, orderedHostCells } from './numaOrder.js';
import { explainRequests, pciNuma, supportsRequests } from './pci.js';

export type { CellFit, NumaLimits, NumaPacking };

/**
 * Cap on guest-cell-to-host-cell tries per host. Nova tries every permutation, which is factorial;
 * this covers every permutation of up to 8 guest cells on 8 host cells (109,600 tries), and on
 * larger hosts stops the search there and reports no fit.
 */
export const MAX_CELL_TRIES = 110_000;

/** Nova's `NUMATopology.has_threads`. */
export function hasThreads(topology: NumaTopology): boolean {
  return topology.cells.some(cellHasThreads);
}

type Search =
  | { fits: CellFit[] }
  | { fits: null; why: 'cells' | 'distinct' | 'pci' | 'budget'; pciCells?: number[] };

/**
 * Nova's `numa_fit_instance_to_host`: where each guest cell goes (indexed like the guest cells),
 * or null. Host cells are tried in Nova's order; the first permutation whose cells all fit and that
 * leaves the PCI requests satisfiable (with numa_policy) wins.
 */
export function placeInstance(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  limits: NumaLimits | null,
  pciRequests: readonly PciRequest[] = [],
  pciStats: PciStats | null = null,
  packing: NumaPacking = 'spread',
): CellFit[] | null {
  return search(host, instance, limits, pciRequests, pciStats, packing).fits;
}

/** Why the guest does not fit, naming guest and host cells; null when it fits. */
export function explainNoFit(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  limits: NumaLimits | null,
  pciRequests: readonly PciRequest[] = [],
  pciStats: PciStats | null = null,
  packing: NumaPacking = 'spread',
): string | null {
  const result = search(host, instance, limits, pciRequests, pciStats, packing);
  if (result.fits) return null;
  const guests = instance.cells;
  if (result.why === 'cells') return `guest needs ${guests.length} NUMA cells; host has ${host.cells.length}`;
  const fitting: string[] = [];
  for (const guest of guests) {
    const misses = new Map<string, string[]>();
    const ok = host.cells.filter((cell) =>
      fitCell(cell, guest, limits, (need, have) => misses.set(need, [...(misses.get(need) ?? []), have])),
    );
    if (ok.length === 0) return [...misses].map(([need, haves]) => `${need}; ${haves.join(', ')}`).join('. ');
    fitting.push(`guest cell ${guest.id} fits host cell(s) ${ok.map((c) => c.id).join(', ')}`);
  }
  if (result.why === 'budget')
    return `gave up after ${MAX_CELL_TRIES} tries of guest cells on the host's ${host.cells.length} cells`;
  if (result.why === 'distinct') return `each guest cell needs its own host cell, but ${fitting.join('; ')}`;
  const pci = explainRequests(pciStats!, pciRequests, pciNuma(result.pciCells ?? [], host));
  return `no placement of the guest cells leaves the PCI requests satisfiable: ${pci}`;
}

function search(
  host: NumaTopology,
  instance: InstanceNumaTopology,
  limits: NumaLimits | null,
  pciRequests: readonly PciRequest[],
  pciStats: PciStats | null,
  packing: NumaPacking,
): Search {
  const guests = instance.cells;
  const G = guests.length;
  if (host.cells.length < G) return { fits: null, why: 'cells' };
  const cells = orderedHostCells(host, instance, pciRequests, pciStats, packing);
  const H = cells.length;
  // A guest cell fits a host cell or not whatever the other cells do, so each pair is tried once.
  const pairs: (CellFit | null | undefined)[] = new Array(G * H);
  const pairFit = (g: number, h: number): CellFit | null => {
    const cached = pairs[g * H + h];
    if (cached !== undefined) return cached;
    const fit = fitCell(cells[h], guests[g], limits);
    pairs[g * H + h] = fit;
    return fit;
  };
  const checkPci = pciRequests.length > 0 && pciStats !== null;
  // Only the set of host cells matters to numa_policy, so each set is checked once.
  const pciMemo = new Map<number | string, boolean>();
  const chosen: CellFit[] = [];
  const used = new Uint8Array(H);
  let tries = 0;
  let firstComplete: number[] | undefined;

  const pciFits = (): boolean => {
    let key: number | string = 0;
    if (H <= 30) for (let h = 0; h < H; h++) key += used[h] ? 2 ** h : 0;
    else
      key = chosen
        .map((f) => f.hostCellId)
        .sort((a, b) => a - b)
        .join(',');
    const known = pciMemo.get(key);
    if (known !== undefined) return known;
    const ids = chosen.map((f) => f.hostCellId);
    firstComplete ??= ids;
    const ok = supportsRequests(pciStats!, pciRequests, pciNuma(ids, host));
    pciMemo.set(key, ok);
    return ok;
  };
  // Depth-first in the order of itertools.permutations, skipping prefixes that already fail.
  const place = (g: number): boolean | 'budget' => {
    if (g === G) return !checkPci || pciFits();
    for (let h = 0; h < H; h++) {
      if (used[h]) continue;
      if (++tries > MAX_CELL_TRIES) return 'budget';
      const fit = pairFit(g, h);
      if (!fit) continue;
      used[h] = 1;
      chosen.push(fit);
      const done = place(g + 1);
      if (done) return done;
      chosen.pop();
      used[h] = 0;
    }
    return false;
  };
  const done = place(0);
  if (done === true) return { fits: chosen };
  if (done === 'budget') return { fits: null, why: 'budget' };
  return firstComplete
    ? { fits: null, why: 'pci', pciCells: firstComplete }
    : { fits: null, why: 'distinct' };
}

/**
 * The limits NUMATopologyFilter puts in `host.limits['numa_topology']`: the host's effective
 * CPU and RAM allocation ratios.
 */
export function numaLimitsFor(host: HostState, config: SchedulerConfig): NumaLimits {
  return {
    cpu_allocation_ratio: allocationRatio(host, 'cpu', config),
    ram_allocation_ratio: allocationRatio(host, 'ram', config),
  };
}

/** `[compute] packing_host_numa_cells_allocation_strategy` as the packing order. */
export function numaPacking(config: SchedulerConfig): NumaPacking {
  return config.compute.packing_host_numa_cells_allocation_strategy ? 'pack' : 'spread';
}
