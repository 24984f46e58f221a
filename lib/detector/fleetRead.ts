/**
 * The fleet as the planner reads it (FleetInput), from the store: host states, instance reports,
 * and only the samples of the sustained window, each instance given the samples reported on its
 * current node. The windows come from the window digests ingest writes (a few Queries per minute of
 * window, however large the fleet); `full` reads one node window per compute node instead (with
 * bounded concurrency): the reference the digests are tested against, and the way when the window
 * reaches back before ingest wrote digests or past how long they are kept.
 */
import type { SchedulerConfig } from '../config/options.js';
import type { HypervisorReport, InstanceReport } from '../model/reports.js';
import { type FleetInput, withInternedStates } from '../rebalance/fleetInput.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StoredHost } from '../store/hostItems.js';
import type { StoredInstance } from '../store/instances.js';
import { nodeEntityKey } from '../store/samplePages.js';
import type { NodeWindow } from '../store/samples.js';
import { digestsCover } from '../store/windowCoverage.js';
import { WINDOW_KEEP_SECONDS } from '../store/windowDigest.js';

export type WindowSettings = Pick<RebalanceSettings, 'sustain_minutes' | 'sample_interval_seconds'>;

/**
 * The samples a detection at `now` can use: the window (now - sustain, now] plus one sample
 * interval, so a sample stamped a little early at the window's start is not lost to clock skew.
 */
export function sampleWindow(now: Date, settings: WindowSettings): { from: Date; to: Date } {
  const ms = settings.sustain_minutes * 60_000 + settings.sample_interval_seconds * 1000;
  return { from: new Date(now.getTime() - ms), to: now };
}

/** How the windows were read: from the digests, or node by node (and why). */
export type WindowSource = 'digests' | 'full' | 'full: digests do not cover the window';

export interface FleetReadOptions {
  store: Pick<FleetStore, 'listInstances' | 'nodeWindow' | 'fleetWindows' | 'digestsWrittenSince'>;
  hosts: readonly StoredHost[];
  now: Date;
  settings: WindowSettings;
  config: SchedulerConfig;
  concurrency: number;
  /** Read every node's window (the reference) instead of the digests. */
  full?: boolean;
}

/** Reads instances and windows for `hosts`; history and hysteresis are left empty for the caller. */
export async function readFleet(
  options: FleetReadOptions,
): Promise<FleetInput & { windowSource: WindowSource }> {
  const { store, hosts, now } = options;
  const [stored, read] = await Promise.all([store.listInstances(), readWindows(options)]);
  const { windows, source } = read;
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
    windowSource: source,
  };
}

/** Each host's window, in the order of `hosts`. */
async function readWindows(
  options: FleetReadOptions,
): Promise<{ windows: NodeWindow[]; source: WindowSource }> {
  const { store, hosts } = options;
  const { from, to } = sampleWindow(options.now, options.settings);
  const full = () =>
    mapLimit(hosts, options.concurrency, (h) => store.nodeWindow(h.state.host, h.state.nodename, from, to));
  if (options.full) return { windows: await full(), source: 'full' };
  const kept = to.getTime() - from.getTime() <= WINDOW_KEEP_SECONDS * 1000;
  if (!(kept && digestsCover(await store.digestsWrittenSince(), from))) {
    return { windows: await full(), source: 'full: digests do not cover the window' };
  }
  const { nodes } = await store.fleetWindows(from, to);
  const windows = hosts.map((h) => nodes.get(nodeEntityKey(h.state)) ?? { host: [], instances: new Map() });
  return { windows, source: 'digests' };
}

const nodeKey = (n: { host: string; nodename: string }) => `${n.host}\u0000${n.nodename}`;
