/**
 * The detector: every VM's state (with hysteresis across runs) and every host's contention, with
 * a reason for each. Pure: the caller reads samples and previous state, and stores the result.
 */
import { detectHost, type HostDetectionSettings } from './detectHost.js';
import { detectVm, type VmDetectionSettings } from './detectVm.js';
import type { DetectionReport, HostObservation, VmDetection, VmObservation } from './types.js';

export type DetectionSettings = VmDetectionSettings & HostDetectionSettings;

export interface DetectInput {
  now: Date;
  hosts: readonly HostObservation[];
  vms: readonly VmObservation[];
  /** UUIDs that were suffering after the previous run (its `suffering`); omit for a stateless run. */
  previouslySuffering?: Iterable<string>;
}

/**
 * Detects suffering VMs and contended hosts at `input.now`. Hosts that only VMs mention (no
 * hypervisor report) are still assessed, from their VMs, with unknown capacity.
 * @example
 * const report = detect({ now, hosts, vms, previouslySuffering: last?.suffering }, settings);
 * report.vms.filter((v) => v.status === 'suffering').map((v) => v.reason);
 */
export function detect(input: DetectInput, settings: DetectionSettings): DetectionReport {
  const previous = new Set(input.previouslySuffering ?? []);
  const vms = input.vms.map((vm) => detectVm(vm, input.now, settings, previous.has(vm.uuid)));
  const byHost = new Map<string, VmDetection[]>();
  for (const vm of vms) {
    const list = byHost.get(vm.host);
    if (list) list.push(vm);
    else byHost.set(vm.host, [vm]);
  }
  const observed = new Set(input.hosts.map((h) => h.host));
  const unreported = [...byHost.keys()]
    .filter((host) => !observed.has(host))
    .map((host): HostObservation => ({ host, availability_zone: null, vcpus_total: 0, samples: [] }));
  const hosts = [...input.hosts, ...unreported].map((host) =>
    detectHost(host, byHost.get(host.host) ?? [], input.now, settings),
  );
  return {
    now: input.now.toISOString(),
    vms,
    hosts,
    suffering: vms.filter((vm) => vm.status === 'suffering').map((vm) => vm.uuid),
  };
}
