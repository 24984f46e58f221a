/**
 * Relieving one host with the fewest bytes moved. Under proportional share every VM on a host
 * loses the same fraction of its demand, so once enough demand has left, the suffering VMs that
 * stay recover without moving. Per host:
 * 1. A suffering VM whose steal is so far above its host's that even a host stealing nothing
 *    would leave it above the exit threshold (pinning, NUMA: not plain contention) can only be
 *    helped by its own move: those move first.
 * 2. The others recover once the host's predicted steal is low enough for the worst of them
 *    (its steal minus the host's, subtracted from the exit threshold; never above
 *    host_steal_threshold_percent). The demand that must leave for that is covered by the
 *    greedy of candidates.ts over the victims (by default), re-selected after every attempt so a
 *    VM that cannot move is replaced by the next best.
 * 3. With noisy_neighbour_moves, the busy VMs that are not suffering join the pool when that
 *    relieves more suffering VMs, or as many for fewer bytes (DRS-style cost/benefit, estimated
 *    before destinations are known).
 */
import { attemptMove } from './attempt.js';
import { bytesOf, type Candidate, demandOf, RELIEF_EPSILON, selectForRelief } from './candidates.js';
import { pct, vcpus } from './format.js';
import { hostLowerBound } from './lowerBound.js';
import type { MovePurpose } from './moveReason.js';
import type { PlanRun } from './planRun.js';
import type { Skip } from './planTypes.js';
import { excessDemand, type HostLoad, hostSteal } from './stealModel.js';
import type { HostDetection } from './types.js';
import { recoveryTarget, type VmShare, vmShare } from './vmSteal.js';

/** Relief beyond the exact excess, so the predicted steal ends strictly below its target. */
const MARGIN_VCPUS = 1e-3;

interface Victim {
  uuid: string;
  share: VmShare | null;
}

export async function relieveHost(p: PlanRun, host: HostDetection): Promise<void> {
  const s = p.settings;
  const exit = s.steal_exit_threshold_percent;
  const load0 = p.state.load(host.host);
  const stealBefore = load0 ? hostSteal(load0) : 0;
  const victims: Victim[] = [];
  const eligible: Candidate[] = [];
  for (const uuid of host.victims) {
    const c = p.candidate(uuid);
    if (!c) continue;
    if (isSkip(c)) p.skip(uuid, c);
    else eligible.push(c);
    const detection = p.detectionOf(uuid);
    victims.push({ uuid, share: detection ? vmShare(detection, p.vcpusOf(uuid) ?? 0) : null });
  }
  const targetOf = (share: VmShare) => recoveryTarget(share, stealBefore, exit);
  const ownMoveOnly = (share: VmShare | null) => !load0 || share === null || targetOf(share) <= 0;
  const mustMove = eligible.filter((c) => ownMoveOnly(c.share));
  const coverVictims = eligible.filter((c) => !ownMoveOnly(c.share));
  const recoverable = victims.filter((v) => !ownMoveOnly(v.share));
  const needFor = (load: HostLoad | undefined, staying: readonly Victim[]) =>
    neededRelief(
      load,
      staying.map((v) => targetOf(v.share as VmShare)),
      s.host_steal_threshold_percent,
    );

  const need0 = needFor(load0, recoverable);
  const all = s.noisy_neighbour_moves ? [...coverVictims, ...busyNeighbours(p, host)] : coverVictims;
  p.lowerBoundBytes += hostLowerBound(mustMove, all, coverVictims, need0);
  const pool = all === coverVictims ? coverVictims : choosePool(coverVictims, all, need0, recoverable.length);

  for (const c of [...mustMove].sort((a, b) => a.cost.bytes - b.cost.bytes)) {
    const why =
      `suffering (steal ${pct(c.stealPercent)}) beyond what its host ${host.host} explains (the host loses ` +
      `${pct(stealBefore)} of its demand): relieving the host would not bring it under the exit threshold ${exit}%, only its own move does`;
    await attemptMove(p, c, { kind: 'victim', why });
  }
  const tried = new Set<string>();
  for (;;) {
    const staying = recoverable.filter((v) => !p.hasMoved(v.uuid));
    const need = staying.length > 0 ? needFor(p.state.load(host.host), staying) : 0;
    if (need <= 0) break;
    const left = pool.filter((c) => !tried.has(c.vm.uuid) && !p.hasMoved(c.vm.uuid));
    const [next] = selectForRelief(left, need);
    if (!next) break;
    tried.add(next.vm.uuid);
    const coverable = demandOf(left) + RELIEF_EPSILON >= need;
    await attemptMove(p, next, purposeOf(next, host, need, coverable, staying.length));
  }
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

/** DRS-style: the pool whose selection relieves more suffering VMs, or as many for fewer bytes. */
function choosePool(victims: Candidate[], all: Candidate[], need: number, recoverable: number): Candidate[] {
  const estimate = (pool: Candidate[]) => {
    const picks = selectForRelief(pool, need);
    const covers = demandOf(picks) + RELIEF_EPSILON >= need;
    return {
      relieved: covers ? recoverable : picks.filter((c) => c.suffering).length,
      bytes: bytesOf(picks),
    };
  };
  const v = estimate(victims);
  const a = estimate(all);
  return a.relieved > v.relieved || (a.relieved === v.relieved && a.bytes < v.bytes) ? all : victims;
}

function purposeOf(
  c: Candidate,
  host: HostDetection,
  need: number,
  coverable: boolean,
  staying: number,
): MovePurpose {
  const where = `${host.status === 'contended' ? 'contended ' : ''}${host.host}`;
  if (!c.suffering) {
    return {
      kind: 'noisy_neighbour',
      why:
        `noisy neighbour on ${where} (${vcpus(c.demandVcpus)} vCPUs of demand, not suffering): moving it ` +
        `lets ${staying} suffering VM(s) recover in place for fewer bytes than moving them (noisy_neighbour_moves)`,
    };
  }
  const load = `load5 ${(c.detection.load5PerVcpu?.mean ?? 0).toFixed(2)}/vCPU`;
  if (!coverable) {
    return {
      kind: 'victim',
      why: `suffering (steal ${pct(c.stealPercent)}, ${load}) on ${where}, which its movable VMs cannot relieve fully: its own move helps it`,
    };
  }
  return {
    kind: 'victim',
    why:
      `suffering (steal ${pct(c.stealPercent)}, ${load}) on ${where}: ${vcpus(need)} vCPUs of demand must leave ` +
      'for the VMs that stay to recover, and it is the best relief per byte moved',
  };
}

function isSkip(c: Candidate | Skip): c is Skip {
  return 'code' in c;
}
