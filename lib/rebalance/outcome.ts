/**
 * What the proportional-share model predicts a set of moves does to every VM's steal, and so how
 * many VMs still suffer. Used for the plan's summary and to compare planning strategies.
 * - A host's predicted steal is max(0, 1 - capacity / demand) (stealModel.ts), with the demand
 *   the moves leave it.
 * - A VM that stays keeps its own measured steal shifted by its host's predicted change, so a VM
 *   that suffers on a host the model sees as calm (pinning, NUMA) stays suffering unless it moves.
 * - A VM that moves gets its destination's predicted steal.
 * - Hysteresis as in detection: a suffering VM recovers only below steal_exit_threshold_percent;
 *   another VM starts suffering above steal_threshold_percent if its work is delayed
 *   (load5 per vCPU above load5_per_vcpu_threshold in every minute).
 */
import type { RebalanceSettings } from './settings.js';
import { type HostLoad, hostSteal, withDemand } from './stealModel.js';
import type { DetectionReport, VmDetection } from './types.js';

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
  /** Predicted steal of every VM with data, percent. */
  stealAfter: Map<string, number>;
}

/** The hosts' loads as detection measured them. */
export function loadsOf(detection: DetectionReport): Map<string, HostLoad> {
  return new Map(detection.hosts.map((h) => [h.host, { capacityVcpus: h.capacityVcpus, demandVcpus: h.demandVcpus }]));
}

/**
 * Predicts every VM's steal after `moves`.
 * @example predictOutcome(detection, plan.migrations, settings).sufferingLeft.length
 */
export function predictOutcome(
  detection: DetectionReport,
  moves: readonly Move[],
  settings: OutcomeSettings,
): Outcome {
  const before = loadsOf(detection);
  const after = new Map(before);
  const byUuid = new Map(detection.vms.map((vm) => [vm.uuid, vm]));
  const destOf = new Map<string, string>();
  for (const m of moves) {
    const demand = byUuid.get(m.instance_uuid)?.demandVcpus ?? 0;
    shift(after, m.source_host, -demand);
    shift(after, m.dest_host, demand);
    destOf.set(m.instance_uuid, m.dest_host);
  }
  const stealOf = (loads: Map<string, HostLoad>, host: string) => {
    const load = loads.get(host);
    return load ? hostSteal(load) : 0;
  };
  const outcome: Outcome = { sufferingLeft: [], newlySuffering: [], stealAfter: new Map() };
  for (const vm of detection.vms) {
    if (vm.steal === null) continue;
    const dest = destOf.get(vm.uuid);
    const steal =
      dest !== undefined
        ? stealOf(after, dest)
        : clamp(vm.steal.mean + stealOf(after, vm.host) - stealOf(before, vm.host));
    outcome.stealAfter.set(vm.uuid, steal);
    if (vm.status === 'suffering') {
      if (steal >= settings.steal_exit_threshold_percent) outcome.sufferingLeft.push(vm.uuid);
    } else if (startsSuffering(vm, steal, settings)) {
      outcome.newlySuffering.push(vm.uuid);
    }
  }
  return outcome;
}

function startsSuffering(vm: VmDetection, steal: number, settings: OutcomeSettings): boolean {
  return (
    steal > settings.steal_threshold_percent &&
    vm.load5PerVcpu !== null &&
    vm.load5PerVcpu.min > settings.load5_per_vcpu_threshold
  );
}

function shift(loads: Map<string, HostLoad>, host: string, delta: number): void {
  const load = loads.get(host);
  if (load) loads.set(host, withDemand(load, delta));
}

const clamp = (v: number) => Math.min(100, Math.max(0, v));
