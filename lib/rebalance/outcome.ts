/**
 * What the proportional-share model predicts a set of moves does to every VM's steal, and so how
 * many VMs still suffer. Used for the plan's summary and to compare planning strategies.
 * - A host's lost share of demand is max(0, 1 - capacity / demand) (stealModel.ts), with the
 *   demand the moves leave it.
 * - A VM that stays keeps its own lost share shifted by its host's change (vmSteal.ts), so a VM
 *   that suffers on a host the model sees as calm (pinning, NUMA) stays suffering unless it moves.
 * - A VM that moves gets its destination's lost share.
 * - Guest steal is that share × demand / vCPUs. Hysteresis as in detection: a suffering VM recovers
 *   only below steal_exit_threshold_percent; another VM starts suffering above
 *   steal_threshold_percent if its work is delayed (load5 per vCPU above the threshold in every minute).
 */
import type { RebalanceSettings } from './settings.js';
import { type HostLoad, hostSteal, withDemand } from './stealModel.js';
import type { DetectionReport, VmDetection } from './types.js';
import { guestSteal, stealStaying, vmShare } from './vmSteal.js';

export interface Move {
  instance_uuid: string;
  source_host: string;
  dest_host: string;
}

export type OutcomeSettings = Pick<
  RebalanceSettings,
  'steal_threshold_percent' | 'steal_exit_threshold_percent' | 'load5_per_vcpu_threshold'
>;

export interface Outcome {
  /** Suffering now and predicted to still suffer. */
  sufferingLeft: string[];
  /** Not suffering now, predicted to suffer. */
  newlySuffering: string[];
  /** Predicted guest steal of every VM with data, percent. */
  stealAfter: Map<string, number>;
}

/**
 * Predicts the steal of every VM the moves touch (moved, or on a host they leave or reach) and of
 * every suffering VM; `vcpus` gives a VM's flavor vCPUs. VMs elsewhere keep what was measured.
 * @example predictOutcome(detection, plan.migrations, (uuid) => vcpus.get(uuid), settings).sufferingLeft.length
 */
export function predictOutcome(
  detection: DetectionReport,
  moves: readonly Move[],
  vcpus: (uuid: string) => number | undefined,
  settings: OutcomeSettings,
): Outcome {
  const destOf = new Map(moves.map((m) => [m.instance_uuid, m.dest_host]));
  const before = new Map<string, HostLoad>();
  for (const m of moves) {
    before.set(m.source_host, NO_LOAD);
    before.set(m.dest_host, NO_LOAD);
  }
  for (const h of detection.hosts) {
    if (before.has(h.host))
      before.set(h.host, { capacityVcpus: h.capacityVcpus, demandVcpus: h.demandVcpus });
  }
  const after = new Map(before);
  for (const vm of detection.vms) {
    const dest = destOf.get(vm.uuid);
    if (dest === undefined || vm.demandVcpus === null) continue;
    shift(after, vm.host, -vm.demandVcpus);
    shift(after, dest, vm.demandVcpus);
  }
  const lost = (loads: Map<string, HostLoad>, host: string) => {
    const load = loads.get(host);
    return load && load !== NO_LOAD ? hostSteal(load) : 0;
  };
  const outcome: Outcome = { sufferingLeft: [], newlySuffering: [], stealAfter: new Map() };
  for (const vm of detection.vms) {
    if (vm.steal === null) continue;
    const dest = destOf.get(vm.uuid);
    const touched = dest !== undefined || before.has(vm.host);
    const suffering = vm.status === 'suffering';
    if (!touched && !suffering) continue;
    const share = touched ? vmShare(vm, vcpus(vm.uuid) ?? 0) : null;
    let steal = vm.steal.mean;
    if (share !== null) {
      steal =
        dest !== undefined
          ? guestSteal(share, lost(after, dest))
          : stealStaying(share, lost(before, vm.host), lost(after, vm.host));
    }
    outcome.stealAfter.set(vm.uuid, steal);
    if (suffering) {
      if (steal >= settings.steal_exit_threshold_percent) outcome.sufferingLeft.push(vm.uuid);
    } else if (steal > vm.steal.mean && startsSuffering(vm, steal, settings)) {
      outcome.newlySuffering.push(vm.uuid);
    }
  }
  return outcome;
}

/** Placeholder for a host the moves touch but detection did not assess. */
const NO_LOAD: HostLoad = { capacityVcpus: 0, demandVcpus: 0 };

function startsSuffering(vm: VmDetection, steal: number, settings: OutcomeSettings): boolean {
  return (
    steal > settings.steal_threshold_percent &&
    vm.load5PerVcpu !== null &&
    vm.load5PerVcpu.min > settings.load5_per_vcpu_threshold
  );
}

function shift(loads: Map<string, HostLoad>, host: string, delta: number): void {
  const load = loads.get(host);
  if (load && load !== NO_LOAD) loads.set(host, withDemand(load, delta));
}
