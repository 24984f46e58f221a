/**
 * Host contention and likely noisy neighbours. A host is contended when it loses more than
 * host_steal_threshold_percent of its VMs' demand (stolen vCPUs / demanded vCPUs, which under
 * proportional share is the fraction every VM loses; idle VMs do not dilute it), on the evidence
 * hostEvidence.ts weighs: its VMs' samples when they cover it, else its own steal metric.
 * The noisy neighbours are the highest-demand VMs whose departure would, by the steal model,
 * bring the host under the threshold.
 */

import type { HostSample } from '../model/reports.js';
import { type SampleSeries, seriesLength } from '../model/sampleSeries.js';
import { pct, vcpus as vcpu } from './format.js';
import { hostEvidence } from './hostEvidence.js';
import { readWindow, type WindowSettings } from './samples.js';
import type { RebalanceSettings } from './settings.js';
import { effectiveCapacity, excessDemand } from './stealModel.js';
import type { HostDetection, HostObservation, NoisyNeighbour, VmDetection } from './types.js';

export type HostDetectionSettings = WindowSettings & Pick<RebalanceSettings, 'host_steal_threshold_percent'>;

const HOST_RANGES = {
  steal_percent: [0, 100],
  cpu_percent: [0, 100],
} as const;

/** Classifies one host from its own samples and the detections of the VMs on it. */
export function detectHost(
  host: HostObservation,
  vms: readonly VmDetection[],
  now: Date,
  settings: HostDetectionSettings,
): HostDetection {
  const withData = vms.filter((vm) => vm.demandVcpus !== null);
  let demand = 0;
  let stolen = 0;
  for (const vm of withData) {
    demand += vm.demandVcpus ?? 0;
    stolen += vm.stolenVcpus ?? 0;
  }
  const own = readWindow(host.samples, now, settings, HOST_RANGES);
  const evidence = hostEvidence({
    stolenVcpus: stolen,
    demandVcpus: demand,
    vmsWithData: withData.length,
    vmsTotal: vms.length,
    hostMetric:
      own.kind === 'ok'
        ? { percent: own.stats.steal_percent.mean }
        : { unusable: sampleCount(host.samples) > 0 ? own.reason : null },
    minCoveragePercent: settings.min_coverage_percent,
  });
  const steal = evidence.lossPercent;
  const base = {
    host: host.host,
    availability_zone: host.availability_zone,
    evidence,
    demandVcpus: demand,
    capacityVcpus: effectiveCapacity(demand, steal ?? 0, host.vcpus_total),
    vmsWithData: withData.length,
    vmsTotal: vms.length,
    victims: vms.filter((vm) => vm.status === 'suffering').map((vm) => vm.uuid),
  };
  const threshold = settings.host_steal_threshold_percent;
  if (steal === null) {
    const hostNote = own.kind === 'ok' ? '' : `host samples ${own.reason}; `;
    const reason = `unknown: ${hostNote}none of its ${vms.length} VM(s) has usable data`;
    return { ...base, status: 'unknown', noisyNeighbours: [], excessDemandVcpus: 0, reason };
  }
  if (steal <= threshold) {
    const reason = `not contended: ${pct(steal)} of demand lost, at or below ${pct(threshold)} (${evidence.text})`;
    return { ...base, status: 'ok', noisyNeighbours: [], excessDemandVcpus: 0, reason };
  }
  const excess = excessDemand({ capacityVcpus: base.capacityVcpus, demandVcpus: demand }, threshold);
  const noisy = noisyNeighbours(withData, excess);
  const names = noisy.map((n) => `${n.uuid} (${vcpu(n.demandVcpus)} vCPUs)`).join(', ');
  const reason =
    `contended: ${pct(steal)} of demand lost, above ${pct(threshold)} (${evidence.text}); ` +
    `${vcpu(excess)} vCPUs of demand must leave` +
    (noisy.length > 0 ? `; likely noisy neighbours: ${names}` : '; no VM data to name noisy neighbours');
  return { ...base, status: 'contended', noisyNeighbours: noisy, excessDemandVcpus: excess, reason };
}

/** The highest-demand VMs, in order, until their demand covers `excess` (at least one). */
function noisyNeighbours(vms: readonly VmDetection[], excess: number): NoisyNeighbour[] {
  const ranked = [...vms].sort((a, b) => (b.demandVcpus ?? 0) - (a.demandVcpus ?? 0));
  const out: NoisyNeighbour[] = [];
  let removed = 0;
  for (const vm of ranked) {
    if (out.length > 0 && removed >= excess) break;
    const demand = vm.demandVcpus ?? 0;
    if (demand <= 0) break;
    out.push({ uuid: vm.uuid, demandVcpus: demand, suffering: vm.status === 'suffering' });
    removed += demand;
  }
  return out;
}

const sampleCount = (samples: readonly HostSample[] | SampleSeries): number =>
  Array.isArray(samples) ? samples.length : seriesLength(samples as SampleSeries);
