/**
 * The fleet as the planner reads it (FleetInput), from the store: host states, instance reports,
 * and only the samples of the sustained window, one node window per compute node (run with
 * bounded concurrency), each instance given the samples reported on its current node.
 */
import type { SchedulerConfig } from '../config/options.js';
import type { HypervisorReport, InstanceReport } from '../model/reports.js';
import { type FleetInput, withInternedStates } from '../rebalance/fleetInput.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StoredHost } from '../store/hostItems.js';
import type { StoredInstance } from '../store/instances.js';

export type WindowSettings = Pick<RebalanceSettings, 'sustain_minutes' | 'sample_interval_seconds'>;

/**
 * The samples a detection at `now` can use: the window (now - sustain, now] plus one sample
 * interval, so a sample stamped a little early at the window's start is not lost to clock skew.
 */
export function sampleWindow(now: Date, settings: WindowSettings): { from: Date; to: Date } {
  const ms = settings.sustain_minutes * 60_000 + settings.sample_interval_seconds * 1000;
  return { from: new Date(now.getTime() - ms), to: now };
}

export interface FleetReadOptions {
  store: Pick<FleetStore, 'listInstances' | 'nodeWindow'>;
  hosts: readonly StoredHost[];
  now: Date;
  settings: WindowSettings;
  config: SchedulerConfig;
  concurrency: number;
}

/** Reads instances and windows for `hosts`; history and hysteresis are left empty for the caller. */
export async function readFleet(options: FleetReadOptions): Promise<FleetInput> {
  const { store, hosts, now, settings } = options;
  const { from, to } = sampleWindow(now, settings);
  const [stored, windows] = await Promise.all([
    store.listInstances(),
    mapLimit(hosts, options.concurrency, (h) => store.nodeWindow(h.state.host, h.state.nodename, from, to)),
  ]);
  const defaultZone = options.config.DEFAULT.default_availability_zone;
  const byNode = new Map(windows.map((w, i) => [nodeKey(hosts[i].state), w]));
  const hypervisors: HypervisorReport[] = hosts.map((h, i) => ({
    host: h.state.host,
    nodename: h.state.nodename,
    availability_zone: h.state.availability_zone ?? defaultZone,
    reported_at: h.reported_at,
    state: h.state,
    samples: windows[i].host,
  }));
  const instances = stored.map((s) => {
    const vm = s as InstanceReport;
    const samples = byNode.get(nodeKey(vm))?.instances.get(vm.uuid) ?? [];
    return { ...(s as StoredInstance), samples } as InstanceReport;
  });
  return {
    now,
    hypervisors: withInternedStates(hypervisors, instances),
    instances,
    history: [],
    previouslySuffering: [],
  };
}

const nodeKey = (n: { host: string; nodename: string }) => `${n.host}\u0000${n.nodename}`;
