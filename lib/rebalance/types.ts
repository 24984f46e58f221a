/**
 * What the rebalancer reads and what detection returns. The inputs are narrow structural views of
 * the ingest reports (lib/model/reports.ts): an InstanceReport is a VmObservation as it is, and a
 * FLEET.json hypervisor (a flat host state with availability_zone and samples) is a
 * HostObservation; a stored HypervisorReport needs `{ ...report, vcpus_total: report.state.vcpus_total }`.
 */
import type { HostSample, InstanceReport, InstanceSample } from '../model/reports.js';
import type { SampleSeries } from '../model/sampleSeries.js';
import type { HostEvidence } from './hostEvidence.js';

/** A sample as read back from the store may also say which host the VM was on. */
export type VmSample = InstanceSample & { host?: string };

export interface HostObservation {
  host: string;
  availability_zone: string | null;
  /** Nova's vcpus_total: the CPUs the hypervisor schedules vCPUs on (logical CPUs with SMT). */
  vcpus_total: number;
  /** Report objects, or a series as the detector reads the store (one shared array, no objects). */
  samples: readonly HostSample[] | SampleSeries;
}

export type VmObservation = Pick<InstanceReport, 'uuid' | 'host' | 'last_migrated_at'> & {
  flavor: Pick<InstanceReport['flavor'], 'vcpus'>;
  samples: readonly VmSample[] | SampleSeries;
};

/** One move the VM made, as recorded by the workflow (or found in the fleet's history). */
export interface MigrationRecord {
  instance_uuid: string;
  source_host: string;
  dest_host: string;
  /** When the move completed (ISO-8601). */
  at: string;
}

/** Summary of one metric over the covered buckets of a window. */
export interface WindowStats {
  /** Lowest bucket mean: "held in every covered minute" means min above the threshold. */
  min: number;
  mean: number;
  max: number;
  /** Mean of the newest covered bucket. */
  last: number;
}

export type VmStatus = 'suffering' | 'ok' | 'stale' | 'insufficient_data';

export interface VmDetection {
  uuid: string;
  host: string;
  status: VmStatus;
  /** True when this run changed the state: entered or left suffering. */
  changed: boolean;
  steal: WindowStats | null;
  load5PerVcpu: WindowStats | null;
  /** Mean CPU demand over the window in vCPUs: used + stolen. Null without usable data. */
  demandVcpus: number | null;
  stolenVcpus: number | null;
  reason: string;
}

export type HostStatus = 'contended' | 'ok' | 'unknown';

export interface NoisyNeighbour {
  uuid: string;
  demandVcpus: number;
  suffering: boolean;
}

export interface HostDetection {
  host: string;
  availability_zone: string | null;
  status: HostStatus;
  /**
   * Its lost share of demand (stolen / demanded vCPUs, `lossPercent`) and the source that decided
   * it; both sources, whether they disagree, and a phrase for reasons (hostEvidence.ts).
   */
  evidence: HostEvidence;
  demandVcpus: number;
  /** Effective capacity (stealModel.effectiveCapacity): what the host delivers. */
  capacityVcpus: number;
  vmsWithData: number;
  vmsTotal: number;
  /** Suffering VMs on this host. */
  victims: string[];
  /** On a contended host: the highest-demand VMs whose departure would bring steal under the threshold. */
  noisyNeighbours: NoisyNeighbour[];
  /** Demand (vCPUs) that must leave for predicted steal to reach the host threshold; 0 when not contended. */
  excessDemandVcpus: number;
  reason: string;
}

export interface DetectionReport {
  now: string;
  vms: VmDetection[];
  hosts: HostDetection[];
  /** UUIDs of suffering VMs; pass to the next run as `previouslySuffering`. */
  suffering: string[];
}
