/**
 * A lower bound on the bytes a plan must move, to judge the planner's choices against. For each
 * host with suffering VMs, ignoring destinations, waves and budgets (but not which VMs may move at
 * all: cooldown, refused block migrations, missing data):
 * - a suffering VM that only its own move can help (its steal stays above the exit threshold even
 *   when the host steals nothing) costs its own bytes;
 * - the others recover once E vCPUs of demand leave; the cheapest set of movable VMs whose demand
 *   reaches E is found exactly by a 0/1 knapsack-cover dynamic programme over demand in steps of
 *   1/20 vCPU, with each demand rounded up and E rounded down, so the result never exceeds the true
 *   minimum;
 * - when no set reaches E, every movable suffering VM must move (its own move is its only relief).
 * The host bounds add up: moves from different hosts do not relieve each other.
 */
import type { Candidate } from './candidates.js';

/** Demand resolution of the knapsack: 1/20 vCPU. */
const STEPS_PER_VCPU = 20;

/**
 * The fewest bytes of `pool` whose demand reaches `excess` vCPUs, or undefined when the whole pool
 * cannot reach it.
 * @example minimumCoverBytes(candidates, 3.16)
 */
export function minimumCoverBytes(pool: readonly Candidate[], excess: number): number | undefined {
  const target = Math.floor(excess * STEPS_PER_VCPU);
  if (target <= 0) return excess > 0 && pool.length > 0 ? cheapestPositive(pool) : 0;
  // best[c]: fewest bytes for at least c steps of demand.
  const best = new Float64Array(target + 1).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  for (const c of pool) {
    const steps = Math.ceil(c.demandVcpus * STEPS_PER_VCPU - 1e-9);
    if (steps <= 0) continue;
    for (let covered = target; covered > 0; covered--) {
      const from = best[Math.max(0, covered - steps)] + c.cost.bytes;
      if (from < best[covered]) best[covered] = from;
    }
  }
  return Number.isFinite(best[target]) ? best[target] : undefined;
}

/** Less than one step of demand is needed: any VM with demand will do. */
function cheapestPositive(pool: readonly Candidate[]): number | undefined {
  let best: number | undefined;
  for (const c of pool)
    if (c.demandVcpus > 0 && (best === undefined || c.cost.bytes < best)) best = c.cost.bytes;
  return best;
}

/**
 * The bound for one host: `mustMove` are suffering VMs only their own move helps, `pool` the VMs
 * that may move to relieve the rest, `victims` the movable suffering VMs among them.
 */
export function hostLowerBound(
  mustMove: readonly Candidate[],
  pool: readonly Candidate[],
  victims: readonly Candidate[],
  excess: number,
): number {
  let bytes = 0;
  for (const c of mustMove) bytes += c.cost.bytes;
  if (excess <= 0) return bytes;
  const cover = minimumCoverBytes(pool, excess);
  if (cover !== undefined) return bytes + cover;
  for (const c of victims) bytes += c.cost.bytes;
  return bytes;
}
