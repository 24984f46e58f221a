/**
 * A lower bound on the bytes the plan moves from one host, to judge the planner's choices
 * against. It is a bound on the same thing the plan does: the same VMs may move (cooldown,
 * refused block migrations and missing data rule the same VMs out), the same model says when a
 * suffering VM recovers (outcome.ts), only destinations, waves and budgets are ignored. So on a
 * host whose every suffering VM the plan relieves, the plan moves at least this many bytes.
 * - A suffering VM that only its own move can help costs its own bytes (if it cannot move, no
 *   plan relieves it: the bound does not cover it).
 * - The others recover once the host's lost share drops below each one's target; the cheapest
 *   set that gets there is found exactly (reliefSet.ts) with each demand rounded up and each
 *   excess down, so the result never exceeds the true minimum; no margin and no cap at the host
 *   threshold (the plan adds both).
 * - When no set relieves them all, the bound covers none of the host's suffering VMs.
 * Host bounds add up: moves from different hosts do not relieve each other.
 */
import { type Candidate, candidateItem } from './candidates.js';
import { cheapestRelief } from './reliefSet.js';
import { excessDemand, type HostLoad, withDemand } from './stealModel.js';

export interface HostBound {
  bytes: number;
  /** The suffering VMs this bound relieves (those the plan could relieve at all). */
  covers: string[];
}

interface BoundVictim {
  uuid: string;
  target: number;
  candidate: Candidate | undefined;
}

/**
 * The bound for one host with `load` (undefined: unknown), its suffering VMs that only their own
 * move helps (`mustMove`), the others (`recoverable`, with their targets), and the VMs that may
 * move to relieve them (`pool`); null when no set of moves relieves every recoverable one.
 */
export function hostLowerBound(
  load: HostLoad | undefined,
  mustMove: readonly BoundVictim[],
  recoverable: readonly BoundVictim[],
  pool: readonly Candidate[],
): HostBound | null {
  let bytes = 0;
  let left = 0;
  const covers: string[] = [];
  for (const v of mustMove) {
    if (!v.candidate) continue;
    bytes += v.candidate.cost.bytes;
    left += v.candidate.demandVcpus;
    covers.push(v.uuid);
  }
  if (recoverable.length === 0) return { bytes, covers };
  if (!load) return null;
  const after = withDemand(load, -left);
  const item = new Map(pool.map((c) => [c, candidateItem(c)]));
  const set = cheapestRelief(
    {
      victims: recoverable.map((v) => ({
        target: v.target,
        candidate: v.candidate ? item.get(v.candidate) : undefined,
      })),
      pool: [...item.values()],
      excessFor: (target) => excessDemand(after, Math.max(0, target)),
    },
    'bound',
  );
  if (set === undefined || set === 'over_budget') return null;
  return { bytes: bytes + set.bytes, covers: [...covers, ...recoverable.map((v) => v.uuid)] };
}
