/**
 * What a host loses to contention, and on what evidence. The unit is the host's lost share of
 * demand: stolen vCPUs over demanded vCPUs (used + stolen) of its VMs. Under proportional share
 * every VM of a contended host loses about that same share of its own demand, whatever its size
 * or how busy it is; a VM's guest steal (stolen over its vCPU time) is that share scaled by how
 * busy it is, so a plain or vCPU-weighted mean of guest steal reads low on a host of half-idle VMs.
 *
 * Two sources can say it:
 * - the VMs' own samples, summed (stolen / demanded vCPUs over the VMs with usable data);
 * - the host's steal_percent metric, which the report schema defines in this same unit, but which
 *   agents in the field fill with host-side steal, CPU ready or a (weighted) mean over VMs.
 * The VMs decide when they cover the host (at least min_coverage_percent of its VMs have usable
 * data): they are what suffers, and their sum is exact in the unit the model needs. The host
 * metric decides only where they do not. When both are there and differ by more than
 * DISAGREEMENT_POINTS, the evidence says so, naming both figures, so the operator can fix the agent.
 */

import { pct, vcpus as vcpu } from './format.js';

/** Host metric and VM figure further apart than this (percentage points) disagree. */
export const DISAGREEMENT_POINTS = 2;

export interface HostEvidence {
  /** The host's lost share of demand, percent; null when neither source is usable. */
  lossPercent: number | null;
  /** Which source decided: the VMs' samples or the host metric. */
  source: 'vms' | 'host' | null;
  /** The VMs' lost share of demand (stolen / demanded vCPUs), when any VM has usable data. */
  vmLossPercent: number | null;
  /** The host's own steal_percent metric (window mean), when usable. */
  hostMetricPercent: number | null;
  /** True when both sources are there and differ by more than DISAGREEMENT_POINTS. */
  disagree: boolean;
  /** One phrase for reasons, e.g. "VM samples: 25.0% of demand lost (…); host metric 19.8% disagrees". */
  text: string;
}

export interface EvidenceInput {
  /** Stolen and demanded vCPUs summed over the VMs with usable data. */
  stolenVcpus: number;
  demandVcpus: number;
  vmsWithData: number;
  vmsTotal: number;
  /** The host metric's window mean, or null with why it is unusable (null reason: no samples). */
  hostMetric: { percent: number } | { unusable: string | null };
  minCoveragePercent: number;
}

/** Weighs the two sources as described above. */
export function hostEvidence(input: EvidenceInput): HostEvidence {
  const { vmsWithData, vmsTotal } = input;
  const vmLoss =
    vmsWithData > 0 ? (input.demandVcpus > 0 ? (input.stolenVcpus / input.demandVcpus) * 100 : 0) : null;
  const metric = 'percent' in input.hostMetric ? input.hostMetric.percent : null;
  const covered = vmsWithData > 0 && (vmsWithData / vmsTotal) * 100 >= input.minCoveragePercent;
  const disagree = vmLoss !== null && metric !== null && Math.abs(metric - vmLoss) > DISAGREEMENT_POINTS;
  const vmText =
    vmLoss === null
      ? ''
      : `VM samples: ${pct(vmLoss)} of demand lost (${vcpu(input.stolenVcpus)} of ${vcpu(input.demandVcpus)} vCPUs stolen, ` +
        `${vmsWithData} of ${vmsTotal} VMs with data)`;
  const unused =
    'unusable' in input.hostMetric && input.hostMetric.unusable !== null
      ? `; host metric unused: ${input.hostMetric.unusable}`
      : '';
  if (covered && vmLoss !== null) {
    let hostText = unused;
    if (metric !== null) {
      hostText = disagree
        ? `; host metric ${pct(metric)} disagrees by ${points(metric - vmLoss)}, decided from the VMs`
        : `; host metric ${pct(metric)} agrees`;
    }
    return {
      lossPercent: vmLoss,
      source: 'vms',
      vmLossPercent: vmLoss,
      hostMetricPercent: metric,
      disagree,
      text: vmText + hostText,
    };
  }
  if (metric !== null) {
    const partial =
      vmLoss === null
        ? vmsTotal > 0
          ? `; none of its ${vmsTotal} VMs has usable data`
          : ''
        : `; its VMs do not cover it (${vmsWithData} of ${vmsTotal} with data, ${pct(vmLoss)} of their demand lost` +
          `${disagree ? `, ${points(metric - vmLoss)} from the host metric` : ''})`;
    return {
      lossPercent: metric,
      source: 'host',
      vmLossPercent: vmLoss,
      hostMetricPercent: metric,
      disagree,
      text: `host metric: ${pct(metric)} of demand lost${partial}`,
    };
  }
  return {
    lossPercent: vmLoss,
    source: vmLoss === null ? null : 'vms',
    vmLossPercent: vmLoss,
    hostMetricPercent: null,
    disagree: false,
    text: vmLoss === null ? `no evidence${unused}` : `${vmText}, the only evidence${unused}`,
  };
}

const points = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(1)} points`;
