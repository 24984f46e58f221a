/**
 * Relieving one host with the fewest bytes moved. Under proportional share every VM on a host
 * loses about the same share of its demand (the host's lost share, on the evidence
 * hostEvidence.ts weighs), so once enough demand has left, the suffering VMs that stay recover
 * without moving. Per host:
 * 1. A suffering VM that loses so much more of its demand than its host that even a host losing
 *    nothing would leave it above the exit threshold (pinning, NUMA: not plain contention) can
 *    only be helped by its own move: those move first.
 * 2. The others recover once the host's lost share is below each one's target (its exit
 *    threshold in the host's unit, minus what it loses beyond the host; never above
 *    host_steal_threshold_percent). The cheapest set of moves that gets there is searched exactly
 *    (reliefSet.ts: the worst victims move or the demand they need gone leaves, a knapsack cover
 *    per host) over the movable victims, and with noisy_neighbour_moves the busy VMs that are not
 *    suffering too; searched again after every attempt, so a VM that cannot move is replaced by
 *    the next best. Past the plan's search budget, the greedy of candidates.ts picks instead.
 * 3. Each host also adds its lower bound (lowerBound.ts) to the plan's.
 */

import type { Skip } from '../model/plan.js';
import { attemptMove } from './attempt.js';
import {
  type Candidate,
  type CandidateItem,
  candidateItem,
  demandOf,
  RELIEF_EPSILON,
  selectForRelief,
} from './candidates.js';
import { pct, vcpus } from './format.js';
import { hostLowerBound } from './lowerBound.js';
import type { MovePurpose } from './moveReason.js';
import type { PlanRun } from './planRun.js';
import { cheapestRelief, type ReliefSet } from './reliefSet.js';
import { excessDemand, type HostLoad, hostSteal, withDemand } from './stealModel.js';
import type { HostDetection } from './types.js';
import { recoveryTarget, type VmShare, vmShare } from './vmSteal.js';

/** Relief beyond the exact excess, so the predicted steal ends strictly below its target. */
const MARGIN_VCPUS = 1e-3;

/** A suffering VM and its target: the host lost share below which it recovers in place. */
interface Victim {
  uuid: string;
  share: VmShare | null;
  /** Percent; 0 or less when only its own move helps. */
  target: number;
  candidate: Candidate | undefined;
}

export async function relieveHost(p: PlanRun, host: HostDetection): Promise<void> {
  const s = p.settings;
  const exit = s.steal_exit_threshold_percent;
  const load0 = p.state.load(host.host);
  const stealBefore = load0 ? hostSteal(load0) : 0;
  const victims: Victim[] = [];
  for (const uuid of host.victims) {
    const c = p.candidate(uuid);
    if (!c) continue;
    if (isSkip(c)) p.skip(uuid, c);
    const detection = p.detectionOf(uuid);
    const share = detection ? vmShare(detection, p.vcpusOf(uuid) ?? 0) : null;
    const target = load0 && share ? recoveryTarget(share, stealBefore, exit) : 0;
    victims.push({ uuid, share, target, candidate: isSkip(c) ? undefined : c });
  }
  const mustMove = victims.filter((v) => v.target <= 0);
  const recoverable = victims.filter((v) => v.target > 0);
  const items = new Map<Candidate, CandidateItem>();
  const itemOf = (c: Candidate) => {
    let item = items.get(c);
    if (!item) {
      item = candidateItem(c);
      items.set(c, item);
    }
    return item;
  };
  const coverVictims = recoverable.flatMap((v) => (v.candidate ? [v.candidate] : []));
  const pool = s.noisy_neighbour_moves ? [...coverVictims, ...busyNeighbours(p, host)] : coverVictims;
  p.addHostBound(host, hostLowerBound(load0, mustMove, recoverable, pool));

  const evidence = host.evidence.text;
  for (const v of [...mustMove].sort((a, b) => bytesOf(a) - bytesOf(b))) {
    if (!v.candidate) continue;
    const c = v.candidate;
    const why =
      `suffering (steal ${pct(c.stealPercent)}, ${pct(c.share.lostPercent)} of its demand lost) beyond what its host ` +
      `${host.host} explains (the host loses ${pct(stealBefore)} of its demand; ${evidence}): relieving the host ` +
      `would not bring it under the exit threshold ${exit}%, only its own move does`;
    await attemptMove(p, c, { kind: 'victim', why });
  }
  const tried = new Set<string>();
  const open = (c: Candidate | undefined) =>
    c !== undefined && !tried.has(c.vm.uuid) && !p.hasMoved(c.vm.uuid);
  // The moves of the chosen set still to plan; searched again only when one cannot be planned.
  let queue: NextMove[] = [];
  for (;;) {
    const load = p.state.load(host.host);
    const staying = recoverable.filter((v) => !p.hasMoved(v.uuid));
    const need = neededRelief(
      load,
      staying.map((v) => v.target),
      s.host_steal_threshold_percent,
    );
    if (need <= 0) break;
    const left = pool.filter(open);
    if (queue.length === 0 || !open(queue[0].c)) {
      const set = cheapestRelief(
        {
          victims: staying.map((v) => ({
            target: v.target,
            candidate: open(v.candidate) ? itemOf(v.candidate as Candidate) : undefined,
          })),
          pool: left.map(itemOf),
          excessFor: (target) => neededRelief(load, [target], s.host_steal_threshold_percent),
        },
        'sure',
        p.searchBudget,
      );
      queue = movesOf(set, left, need, load);
    }
    const next = queue.shift();
    if (!next) break;
    tried.add(next.c.vm.uuid);
    const planned = await attemptMove(p, next.c, purposeOf(next, host, need, staying.length));
    if (!planned || next.role === 'greedy' || next.role === 'partial') queue = [];
  }
}

interface NextMove {
  c: Candidate;
  role: 'worst' | 'cover' | 'greedy' | 'partial';
  /** For a move of a relief set: the drop of the host's steal (points) the whole set brings. */
  setBenefit?: number;
}

/** The moves to plan: the worst victims of the cheapest set first, then its cover by demand; else greedy. */
function movesOf(
  set: ReliefSet<CandidateItem> | undefined | 'over_budget',
  left: readonly Candidate[],
  need: number,
  load: HostLoad | undefined,
): NextMove[] {
  if (set !== undefined && set !== 'over_budget') {
    const cover = [...set.cover].sort((a, b) => b.demandVcpus - a.demandVcpus);
    const all = [...set.worst, ...cover];
    const leaving = all.reduce((n, i) => n + i.demandVcpus, 0);
    const setBenefit = load ? hostSteal(load) - hostSteal(withDemand(load, -leaving)) : undefined;
    return [
      ...set.worst.map((i) => ({ c: i.c, role: 'worst' as const, setBenefit })),
      ...cover.map((i) => ({ c: i.c, role: 'cover' as const, setBenefit })),
    ];
  }
  // No set relieves every victim (each move still helps), or the search budget is spent: one
  // greedy pick at a time.
  const [pick] = selectForRelief(left, need);
  if (!pick) return [];
  const covers = demandOf(left) + RELIEF_EPSILON >= need;
  return [{ c: pick, role: set === 'over_budget' && covers ? 'greedy' : 'partial' }];
}

/**
 * vCPUs of demand that must leave so the host's predicted steal drops below every target (each
 * staying victim's exit threshold minus its excess steal), capped at the host threshold; 0 when
 * it already is.
 */
export function neededRelief(
  load: HostLoad | undefined,
  targets: readonly number[],
  hostThreshold: number,
): number {
  if (!load || targets.length === 0) return 0;
  const target = Math.max(0, Math.min(hostThreshold, ...targets));
  const excess = excessDemand(load, target);
  return excess > 0 ? excess + MARGIN_VCPUS : 0;
}

/** The busy VMs of the host that are not suffering but may move (noisy_neighbour_moves). */
function busyNeighbours(p: PlanRun, host: HostDetection): Candidate[] {
  const out: Candidate[] = [];
  for (const uuid of p.vmsOnHost(host.host)) {
    const c = p.candidate(uuid);
    if (c && !isSkip(c) && !c.suffering && c.demandVcpus > 0) out.push(c);
  }
  return out;
}

function purposeOf(next: NextMove, host: HostDetection, need: number, staying: number): MovePurpose {
  const { c, role } = next;
  const where = `${host.status === 'contended' ? 'contended ' : ''}${host.host} (${host.evidence.text})`;
  const how =
    role === 'greedy'
      ? 'the best relief per byte (greedy: the plan spent its search budget)'
      : role === 'partial'
        ? 'the best relief per byte, though no set of movable VMs relieves every suffering VM there'
        : 'part of the set of moves with the fewest bytes that relieves every suffering VM there';
  if (!c.suffering) {
    const set =
      next.setBenefit === undefined
        ? ''
        : `; with the rest of its set, ${host.host}'s steal drops by ${next.setBenefit.toFixed(1)} points`;
    return {
      kind: 'noisy_neighbour',
      setBenefit: next.setBenefit,
      why:
        `noisy neighbour on ${where} (${vcpus(c.demandVcpus)} vCPUs of demand, not suffering): ${vcpus(need)} vCPUs of ` +
        `demand must leave for ${staying} suffering VM(s) to recover in place, and moving it is ${how}${set} (noisy_neighbour_moves)`,
    };
  }
  const state = `suffering (steal ${pct(c.stealPercent)}, ${pct(c.share.lostPercent)} of its demand lost, load5 ${(c.detection.load5PerVcpu?.mean ?? 0).toFixed(2)}/vCPU) on ${where}`;
  if (role === 'partial') {
    return {
      kind: 'victim',
      why: `${state}, which its movable VMs cannot relieve fully: its own move helps it`,
    };
  }
  if (role === 'worst') {
    return {
      kind: 'victim',
      why: `${state}: it needs its host the least contended of the VMs there, so its own move is ${how}`,
    };
  }
  return {
    kind: 'victim',
    why: `${state}: ${vcpus(need)} vCPUs of demand must leave for the VMs that stay to recover, and its move is ${how}`,
  };
}

function bytesOf(v: Victim): number {
  return v.candidate?.cost.bytes ?? 0;
}

function isSkip(c: Candidate | Skip): c is Skip {
  return 'code' in c;
}
