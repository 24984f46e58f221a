/**
 * The cheapest set of moves that relieves every suffering VM of one host, before any destination
 * is chosen. Under proportional share a suffering VM that stays recovers once its host's lost
 * share drops below its target (vmSteal.recoveryTarget), so the host needs E vCPUs of demand to
 * leave, set by the worst victim that stays (the lowest target). Moving a victim both sheds its
 * demand and takes it out of "who stays"; so, with the victims sorted worst first, the candidate
 * answers are: the k worst victims move (k = 0..m) and the rest of E is covered by the cheapest
 * set of the other movable VMs (coverSearch.ts). The cheapest over k is the answer; k stops at the
 * first victim that cannot move (it stays, so its target binds).
 */
import { type CoverItem, cheapestCover, type Rounding, type SearchBudget } from './coverSearch.js';

export interface ReliefVictim<C> {
  /** Host lost share (percent) below which it recovers in place. */
  target: number;
  /** The VM as a move candidate; undefined when it cannot move. */
  candidate: C | undefined;
}

export interface ReliefProblem<C extends CoverItem> {
  /** Suffering VMs that recover once the host is relieved enough (not the own-move-only ones). */
  victims: readonly ReliefVictim<C>[];
  /** Movable VMs that may go to relieve the host (movable victims included). */
  pool: readonly C[];
  /** vCPUs of demand that must leave for the host's lost share to drop below `target`. */
  excessFor: (target: number) => number;
}

export interface ReliefSet<C> {
  bytes: number;
  /** Victims that move because they are the worst (their own move is their relief), worst first. */
  worst: C[];
  /** The other moves, covering the demand the staying victims need gone. */
  cover: C[];
}

/**
 * The cheapest relief set, or undefined when no set relieves every victim (or `budget` ran out:
 * then 'over_budget').
 */
export function cheapestRelief<C extends CoverItem>(
  problem: ReliefProblem<C>,
  rounding: Rounding,
  budget?: SearchBudget,
): ReliefSet<C> | undefined | 'over_budget' {
  const victims = [...problem.victims].sort((a, b) => a.target - b.target);
  let best: ReliefSet<C> | undefined;
  const worst: C[] = [];
  let worstBytes = 0;
  let worstDemand = 0;
  for (let k = 0; k <= victims.length; k++) {
    const staying = victims[k];
    const need = staying === undefined ? 0 : Math.max(0, problem.excessFor(staying.target) - worstDemand);
    if (best !== undefined && worstBytes >= best.bytes) break;
    const rest = problem.pool.filter((c) => !worst.includes(c));
    const cover = cheapestCover(rest, need, rounding, budget);
    if (cover === 'over_budget') return cover;
    if (cover !== undefined && (best === undefined || worstBytes + cover.bytes < best.bytes)) {
      best = { bytes: worstBytes + cover.bytes, worst: [...worst], cover: cover.picks.map((i) => rest[i]) };
    }
    if (staying === undefined || staying.candidate === undefined) break;
    worst.push(staying.candidate);
    worstBytes += staying.candidate.bytes;
    worstDemand += staying.candidate.demandVcpus;
  }
  return best;
}
