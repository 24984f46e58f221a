/**
 * Plans one move: the engine's choice of destination (then its alternates), kept when the move
 * is worth it (min_benefit_percent) and has room in a wave before the plan expires.
 */

import type { Skip } from '../model/plan.js';
import type { Candidate } from './candidates.js';
import { pingPongReason, recentSources } from './cooldown.js';
import { findDestinations } from './destination.js';
import { describeMove, type MovePurpose } from './moveReason.js';
import type { PlanRun } from './planRun.js';
import { hostSteal, stealAfterAdding, stealAfterRemoving } from './stealModel.js';
import { guestSteal } from './vmSteal.js';

/** Plans moving `c`; returns true when planned, else records why not. */
export async function attemptMove(run: PlanRun, c: Candidate, purpose: MovePurpose): Promise<boolean> {
  const { vm } = c;
  const { settings, state } = run;
  const source = state.hostOf(vm.uuid, vm.host);
  const zone = vm.availability_zone;
  // When no wave has room for anything leaving this source, no destination can change that.
  const leaving = run.waves.slot({ source, dest: '', zone, seconds: c.cost.seconds });
  if (!leaving.ok) return refuse(run, vm.uuid, leaving);
  const query = {
    vm,
    source,
    demandVcpus: c.demandVcpus,
    excluded: noReturnHosts(run, vm.uuid, source),
    groupMembers: vm.server_group ? (run.groups.get(vm.server_group.name) ?? []) : [],
    limits: {
      hostStealThresholdPercent: settings.host_steal_threshold_percent,
      maxSameRolePerHost: settings.max_same_role_per_host,
    },
    requestId: `rebalance-${vm.uuid}`,
  };
  const found = await findDestinations(run.scheduler, state, query, run.now);
  if (!found.ok) return refuse(run, vm.uuid, { code: 'no_destination', reason: found.reason });
  const sourceLoad = state.load(source);
  const sourceBefore = sourceLoad ? hostSteal(sourceLoad) : c.share.lostPercent;
  const sourceAfter = sourceLoad ? stealAfterRemoving(sourceLoad, [c.demandVcpus]) : 0;
  let refusal: Skip | undefined;
  for (const dest of found.hosts) {
    const destLoad = state.load(dest);
    if (!destLoad) continue;
    const destAfter = stealAfterAdding(destLoad, [c.demandVcpus]);
    const vmAfter = guestSteal(c.share, destAfter);
    // A noisy neighbour that is one of a relief set is worth what the set does to its host: the
    // set works only as a whole, and its last small move alone always looks like little.
    const benefit =
      purpose.kind === 'victim'
        ? c.stealPercent - vmAfter
        : Math.max(sourceBefore - sourceAfter, purpose.setBenefit ?? 0);
    if (benefit < settings.min_benefit_percent) {
      refusal ??= tooLittleBenefit(purpose, benefit, settings.min_benefit_percent, dest);
      continue;
    }
    const move = { source, dest, zone, seconds: c.cost.seconds };
    const slot = run.waves.slot(move);
    if (!slot.ok) {
      refusal ??= slot;
      continue;
    }
    run.waves.add(move, slot);
    state.apply({
      vm: { ...vm, role: vm.role ?? null },
      demandVcpus: c.demandVcpus,
      source,
      dest,
      spec: found.spec,
    });
    const gain = { sourceBefore, sourceAfter, destBefore: hostSteal(destLoad), destAfter, vmAfter };
    run.record(describeMove({ c, purpose, source, dest, wave: slot.wave, startsAt: slot.startsAt, gain }));
    return true;
  }
  return refuse(
    run,
    vm.uuid,
    refusal ?? { code: 'no_destination', reason: 'no destination with a known steal' },
  );
}

function refuse(run: PlanRun, uuid: string, skip: Skip): false {
  run.skip(uuid, { code: skip.code, reason: skip.reason });
  return false;
}

/** Hosts the VM left within no_return_hours: never its destination (no ping-pong). */
function noReturnHosts(run: PlanRun, uuid: string, source: string): Map<string, string> {
  const out = new Map<string, string>();
  const sources = recentSources(uuid, run.history.get(uuid) ?? [], run.now, run.settings);
  for (const host of sources.keys()) {
    if (host !== source)
      out.set(host, pingPongReason(sources, host, run.now, run.settings) ?? 'no ping-pong');
  }
  return out;
}

function tooLittleBenefit(purpose: MovePurpose, benefit: number, min: number, dest: string): Skip {
  const what =
    purpose.kind === 'victim'
      ? 'its own steal would drop'
      : purpose.setBenefit !== undefined
        ? 'its host steal would drop (with the rest of its relief set)'
        : 'its host steal would drop';
  return {
    code: 'too_little_benefit',
    reason: `too little benefit: moving it to ${dest}, ${what} by ${benefit.toFixed(1)} points, below min_benefit_percent ${min}`,
  };
}
