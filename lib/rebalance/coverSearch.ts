/**
 * The cheapest set of VMs whose demand reaches a target: a 0/1 knapsack cover over demand in
 * steps of 1/STEPS_PER_VCPU vCPU ("remove at least E vCPUs of demand, moving the fewest bytes").
 * Exact up to that resolution, and small per host (a few dozen VMs, E of a few to a few dozen
 * vCPUs: thousands of cells). Rounding is chosen by the caller:
 * - `sure` (planning): demand rounded down and the target up, so the set found really covers E;
 * - `bound` (lower bound): demand rounded up and the target down, so the bytes found never exceed
 *   the true minimum.
 */

/** Demand resolution: 1/20 vCPU. */
export const STEPS_PER_VCPU = 20;

export interface CoverItem {
  demandVcpus: number;
  bytes: number;
}

export interface Cover {
  bytes: number;
  /** Indexes into the items, in item order (`sure` only: a bound needs just the bytes). */
  picks: number[];
}

export type Rounding = 'sure' | 'bound';

/**
 * One plan's searches: counts the DP cells they fill, so the planner can stop searching and fall
 * back to greedy.
 */
export class SearchBudget {
  used = 0;
  constructor(readonly cells: number) {}
  get exhausted(): boolean {
    return this.used >= this.cells;
  }
  /** Reserves `cells`; false (nothing reserved) when that would go past the budget. */
  take(cells: number): boolean {
    if (this.used + cells > this.cells) return false;
    this.used += cells;
    return true;
  }
}

/**
 * The fewest bytes of `items` whose demand reaches `target` vCPUs; undefined when all of them
 * cannot, or when `budget` has no room for the search (the caller falls back to greedy).
 * @example cheapestCover([{ demandVcpus: 3, bytes: 8 }, { demandVcpus: 2, bytes: 2 }], 1.5, 'sure') // { bytes: 2, picks: [1] }
 */
export function cheapestCover(
  items: readonly CoverItem[],
  target: number,
  rounding: Rounding,
  budget?: SearchBudget,
): Cover | undefined | 'over_budget' {
  if (!(target > 0)) return { bytes: 0, picks: [] };
  const scaled = target * STEPS_PER_VCPU;
  const goal = Math.max(1, rounding === 'sure' ? Math.ceil(scaled - 1e-9) : Math.floor(scaled + 1e-9));
  const steps = items.map((c) => {
    const s = c.demandVcpus * STEPS_PER_VCPU;
    return rounding === 'sure' ? Math.floor(s + 1e-9) : Math.ceil(s - 1e-9);
  });
  if (budget && !budget.take(items.length * goal)) return 'over_budget';
  // best[c]: fewest bytes for at least c steps of demand; took[i * (goal + 1) + c]: item i improved c.
  const width = goal + 1;
  const best = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  const took = rounding === 'sure' ? new Uint8Array(items.length * width) : undefined;
  for (let i = 0; i < items.length; i++) {
    const size = steps[i];
    if (size <= 0) continue;
    const bytes = items[i].bytes;
    const row = i * width;
    for (let covered = goal; covered > 0; covered--) {
      const from = best[covered > size ? covered - size : 0] + bytes;
      if (from < best[covered]) {
        best[covered] = from;
        if (took) took[row + covered] = 1;
      }
    }
  }
  if (!Number.isFinite(best[goal])) return undefined;
  // A bound needs only the bytes; a plan needs the set.
  if (!took) return { bytes: best[goal], picks: [] };
  const picks: number[] = [];
  let covered = goal;
  for (let i = items.length - 1; i >= 0 && covered > 0; i--) {
    if (took[i * width + covered] === 1) {
      picks.push(i);
      covered = Math.max(0, covered - steps[i]);
    }
  }
  return { bytes: best[goal], picks: picks.reverse() };
}
