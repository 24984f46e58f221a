/**
 * One VM's state with entry/exit hysteresis. A VM enters "suffering" only when, in every covered
 * bucket of the sustained window, steal is above steal_threshold_percent AND load5 per vCPU is
 * above load5_per_vcpu_threshold (steal without delayed work is not a problem). A suffering VM
 * stays suffering until its window mean of steal drops below steal_exit_threshold_percent, or its
 * mean load5 per vCPU below load5_per_vcpu_exit_threshold. So a value between the exit and entry
 * thresholds never changes the state. Stale or insufficient data is never "suffering".
 */

import type { SampleSeries } from '../model/sampleSeries.js';
import { flat } from './format.js';
import { readWindow, type WindowSettings } from './samples.js';
import type { RebalanceSettings } from './settings.js';
import { demandVcpus } from './stealModel.js';
import type { VmDetection, VmObservation, VmSample, WindowStats } from './types.js';

export type VmDetectionSettings = WindowSettings &
  Pick<
    RebalanceSettings,
    | 'steal_threshold_percent'
    | 'steal_exit_threshold_percent'
    | 'load5_per_vcpu_threshold'
    | 'load5_per_vcpu_exit_threshold'
  >;

const VM_RANGES = {
  steal_percent: [0, 100],
  cpu_percent: [0, 100],
  load5: [0, Number.POSITIVE_INFINITY],
} as const;

/** Classifies one VM at `now`; `wasSuffering` is its state from the previous detector run. */
export function detectVm(
  vm: VmObservation,
  now: Date,
  settings: VmDetectionSettings,
  wasSuffering = false,
): VmDetection {
  const vcpus = vm.flavor.vcpus;
  if (!(vcpus > 0)) {
    const reason = `insufficient data: flavor has ${vcpus} vCPUs, so load5 per vCPU is undefined`;
    return withoutData(vm, 'insufficient_data', wasSuffering, reason);
  }
  const migratedAt = vm.last_migrated_at ? Date.parse(vm.last_migrated_at) : Number.NaN;
  const since = Number.isNaN(migratedAt) ? Number.NEGATIVE_INFINITY : migratedAt;
  const reading = readWindow(samplesOnHost(vm), now, settings, VM_RANGES, since);
  if (reading.kind !== 'ok') {
    const windowStart = now.getTime() - settings.sustain_minutes * 60_000;
    const note =
      since > windowStart ? ` (only samples since its migration at ${vm.last_migrated_at} count)` : '';
    const status = reading.kind === 'stale' ? 'stale' : 'insufficient_data';
    return withoutData(vm, status, wasSuffering, reading.reason + note);
  }
  const { steal_percent: steal, load5, cpu_percent: cpu } = reading.stats;
  const load5PerVcpu = scale(load5, 1 / vcpus);
  const verdict = wasSuffering
    ? stayVerdict(steal, load5PerVcpu, settings)
    : enterVerdict(steal, load5PerVcpu, settings, `${reading.covered} covered buckets`);
  // Object literals, not spreads: this runs for every VM of the fleet.
  return {
    uuid: vm.uuid,
    host: vm.host,
    status: verdict.status,
    changed: (verdict.status === 'suffering') !== wasSuffering,
    steal,
    load5PerVcpu,
    demandVcpus: demandVcpus(cpu.mean, steal.mean, vcpus),
    stolenVcpus: (steal.mean / 100) * vcpus,
    reason: flat(verdict.reason),
  };
}

function withoutData(
  vm: VmObservation,
  status: 'stale' | 'insufficient_data',
  wasSuffering: boolean,
  reason: string,
): VmDetection {
  return {
    uuid: vm.uuid,
    host: vm.host,
    status,
    changed: wasSuffering,
    steal: null,
    load5PerVcpu: null,
    demandVcpus: null,
    stolenVcpus: null,
    reason: flat(reason),
  };
}

/** Store samples say which host the VM was on; samples from another host describe that host. */
function samplesOnHost(vm: VmObservation): readonly VmSample[] | SampleSeries {
  // A series holds one node's samples only.
  if (!Array.isArray(vm.samples)) return vm.samples;
  const samples = vm.samples as readonly VmSample[];
  const onHost = (s: VmSample) => s.host === undefined || s.host === vm.host;
  return samples.every(onHost) ? samples : samples.filter(onHost);
}

function enterVerdict(
  steal: WindowStats,
  load: WindowStats,
  s: VmDetectionSettings,
  coverage: string,
): { status: 'suffering' | 'ok'; reason: string } {
  const stealHigh = steal.min > s.steal_threshold_percent;
  const loadHigh = load.min > s.load5_per_vcpu_threshold;
  const stealText = `steal ${stealHigh ? 'above' : 'not always above'} ${pct(s.steal_threshold_percent)} (lowest ${pct(steal.min)}, mean ${pct(steal.mean)})`;
  const loadText = `load5 ${loadHigh ? 'above' : 'not always above'} ${num(s.load5_per_vcpu_threshold)}/vCPU (lowest ${num(load.min)}, mean ${num(load.mean)})`;
  if (stealHigh && loadHigh) {
    return { status: 'suffering', reason: `suffering: ${stealText} and ${loadText} in all ${coverage}` };
  }
  if (stealHigh) {
    return {
      status: 'ok',
      reason: `not suffering: ${stealText}, but ${loadText}: steal without delayed work`,
    };
  }
  return { status: 'ok', reason: `not suffering: ${stealText}; ${loadText} over ${coverage}` };
}

function stayVerdict(
  steal: WindowStats,
  load: WindowStats,
  s: VmDetectionSettings,
): { status: 'suffering' | 'ok'; reason: string } {
  const stealFell = steal.mean < s.steal_exit_threshold_percent;
  const loadFell = load.mean < s.load5_per_vcpu_exit_threshold;
  const stealText = `mean steal ${pct(steal.mean)} ${stealFell ? 'dropped below' : 'has not dropped below'} the exit threshold ${pct(s.steal_exit_threshold_percent)}`;
  const loadText = `mean load5 ${num(load.mean)}/vCPU ${loadFell ? 'dropped below' : 'has not dropped below'} ${num(s.load5_per_vcpu_exit_threshold)}`;
  if (stealFell) return { status: 'ok', reason: `recovered: ${stealText}` };
  if (loadFell) return { status: 'ok', reason: `recovered: ${loadText} (steal no longer delays work)` };
  return { status: 'suffering', reason: `still suffering: ${stealText} and ${loadText}` };
}

function scale(stats: WindowStats, factor: number): WindowStats {
  return {
    min: stats.min * factor,
    mean: stats.mean * factor,
    max: stats.max * factor,
    last: stats.last * factor,
  };
}

const pct = (v: number) => `${v.toFixed(1)}%`;
const num = (v: number) => v.toFixed(2);
