/**
 * Which VMs may move, and which to move to relieve a host with the fewest bytes.
 *
 * Selection is a greedy for the min-cost cover ("remove at least E vCPUs of demand, moving as few
 * bytes as possible"), which is NP-hard exactly but small per host:
 * 1. Repeatedly take the candidate with the most relief per byte, where relief is its demand
 *    capped at what is still needed (min(demand, E_left) / bytes): small RAM, shared storage and
 *    high demand come first. Capping stops a big VM from looking good for relief nobody needs.
 * 2. Unless a single candidate that finishes the job alone (demand >= E_left) costs no more than
 *    that pick: then take it and stop.
 * 3. Prune: drop picks, largest first, whose demand is not needed once the others are taken.
 * When the pool cannot cover E, every candidate is returned (each move still helps).
 * The planner takes the first pick, plans it, and selects again with what is left, so a VM that
 * cannot move is replaced by the next best.
 */

import type { Skip } from '../model/plan.js';
import type { InstanceReport } from '../model/reports.js';
import type { Cooldown } from './cooldown.js';
import type { MigrationCost } from './cost.js';
import type { CoverItem } from './coverSearch.js';
import type { VmDetection } from './types.js';
import type { VmShare } from './vmSteal.js';

/** Relief within this of what is needed counts as enough (float noise). */
export const RELIEF_EPSILON = 1e-6;

export interface Candidate {
  vm: InstanceReport;
  detection: VmDetection;
  /** CPU demand in vCPUs (used + stolen): what leaves the source. */
  demandVcpus: number;
  /** The VM's measured mean (guest) steal over the window, percent. */
  stealPercent: number;
  /** Its demand, vCPUs and lost share of demand (vmSteal.ts). */
  share: VmShare;
  suffering: boolean;
  cost: MigrationCost;
}

/** A candidate as the cover search sees it (coverSearch.ts): what leaves and what it costs. */
export interface CandidateItem extends CoverItem {
  c: Candidate;
}

export function candidateItem(c: Candidate): CandidateItem {
  return { demandVcpus: c.demandVcpus, bytes: c.cost.bytes, c };
}

/**
 * Why the VM cannot move at all, whatever the destination, or undefined when it may.
 * @example ineligibility(detection, cost, cooldownOf(vm, history, now, settings))
 */
export function ineligibility(
  detection: VmDetection,
  cost: MigrationCost,
  cooldown: Cooldown,
): Skip | undefined {
  if (detection.demandVcpus === null || detection.steal === null) {
    return { code: 'no_data', reason: `no usable samples to plan with: ${detection.reason}` };
  }
  if (cooldown.coolingDown) return { code: 'cooldown', reason: cooldown.reason };
  if (cost.block === 'refused') {
    return { code: 'block_migration_too_large', reason: `block migration too large: ${cost.reason}` };
  }
  if (!cost.converges) {
    return { code: 'not_converging', reason: `live migration would not converge: ${cost.reason}` };
  }
  return undefined;
}

/**
 * The candidates to move, in order, so that at least `excess` vCPUs of demand leave (see above).
 * @example selectForRelief(victims, 3.2)[0] // the next VM to plan
 */
export function selectForRelief(pool: readonly Candidate[], excess: number): Candidate[] {
  if (excess <= RELIEF_EPSILON) return [];
  const left = [...pool];
  const picks: Candidate[] = [];
  let needed = excess;
  while (needed > RELIEF_EPSILON && left.length > 0) {
    const best = bestRatio(left, needed);
    const finisher = cheapestFinisher(left, needed);
    const pick = finisher && finisher.cost.bytes <= best.cost.bytes ? finisher : best;
    picks.push(pick);
    left.splice(left.indexOf(pick), 1);
    needed -= pick.demandVcpus;
  }
  if (needed > RELIEF_EPSILON) return picks;
  return prune(picks, excess);
}

/** Total demand of the candidates, vCPUs. */
export function demandOf(candidates: readonly Candidate[]): number {
  let total = 0;
  for (const c of candidates) total += c.demandVcpus;
  return total;
}

function bestRatio(pool: readonly Candidate[], needed: number): Candidate {
  let best = pool[0];
  let bestScore = score(best, needed);
  for (let i = 1; i < pool.length; i++) {
    const s = score(pool[i], needed);
    if (s > bestScore || (s === bestScore && before(pool[i], best))) {
      best = pool[i];
      bestScore = s;
    }
  }
  return best;
}

function score(c: Candidate, needed: number): number {
  // A VM of 0 bytes (no RAM, shared storage) costs nothing: any relief from it is free.
  return Math.min(c.demandVcpus, needed) / Math.max(c.cost.bytes, 1);
}

function cheapestFinisher(pool: readonly Candidate[], needed: number): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of pool) {
    if (c.demandVcpus + RELIEF_EPSILON < needed) continue;
    if (!best || c.cost.bytes < best.cost.bytes || (c.cost.bytes === best.cost.bytes && before(c, best))) {
      best = c;
    }
  }
  return best;
}

/** Ties: more demand first, then uuid, so plans are reproducible. */
function before(a: Candidate, b: Candidate): boolean {
  if (a.demandVcpus !== b.demandVcpus) return a.demandVcpus > b.demandVcpus;
  return a.vm.uuid < b.vm.uuid;
}

function prune(picks: Candidate[], excess: number): Candidate[] {
  let total = demandOf(picks);
  const byBytes = [...picks].sort((a, b) => b.cost.bytes - a.cost.bytes);
  const dropped = new Set<Candidate>();
  for (const c of byBytes) {
    if (total - c.demandVcpus + RELIEF_EPSILON >= excess) {
      dropped.add(c);
      total -= c.demandVcpus;
    }
  }
  return picks.filter((c) => !dropped.has(c));
}
