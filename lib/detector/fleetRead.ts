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
import { EMPTY_SERIES } from '../model/sampleSeries.js';
import { type FleetInput, withInternedStates } from '../rebalance/fleetInput.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { HostObservation, VmObservation } from '../rebalance/types.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';
import { type NodeSeries, nodeSeriesOf } from '../store/fleetWindows.js';
import type { StoredHost } from '../store/hostItems.js';
import type { StoredInstance } from '../store/instances.js';
import { nodeEntityKey } from '../store/samplePages.js';
import { digestsCover } from '../store/windowCoverage.js';
import { WINDOW_KEEP_SECONDS } from '../store/windowDigest.js';

/** The two settings that fix which samples a window covers (the rest of the window settings are in lib/rebalance/samples). */
export type WindowSpan = Pick<RebalanceSettings, 'sustain_minutes' | 'sample_interval_seconds'>;

/**
 * The samples a detection at `now` can use: the window (now - sustain, now] plus one sample
 * interval, so a sample stamped a little early at the window's start is not lost to clock skew.
 */
export function sampleWindow(now: Date, settings: WindowSpan): { from: Date; to: Date } {
  const ms = settings.sustain_minutes * 60_000 + settings.sample_interval_seconds * 1000;
  return { from: new Date(now.getTime() - ms), to: now };
}

/** How the windows were read: from the digests, or node by node (and why). */
export type WindowSource = 'digests' | 'full' | 'full: digests do not cover the window';

export interface FleetReadOptions {
  store: Pick<FleetStore, 'listInstances' | 'nodeWindow' | 'fleetWindows' | 'digestsWrittenSince'>;
  hosts: readonly StoredHost[];
  now: Date;
  settings: WindowSpan;
  config: SchedulerConfig;
  concurrency: number;
  /** Read every node's window (the reference) instead of the digests. */
  full?: boolean;
}

/**
 * What a detection reads: the hosts and VMs with their windows as series (no sample objects: at
 * 10,000 hosts those were most of the run's CPU and memory, issue 17).
 */
export interface Observed {
  hosts: HostObservation[];
  vms: VmObservation[];
}

/** A fleet read for a detection and its planning; see readFleet. */
export type FleetRead = FleetInput & { observed: Observed; windowSource: WindowSource };

/**
 * Reads instances and windows for `hosts`. The windows are in `observed`, what `detect` takes;
 * the fleet's reports carry no samples (the planner reads the detection, not samples). History
 * and hysteresis are left empty for the caller.
 */
export async function readFleet(options: FleetReadOptions): Promise<FleetRead> {
  const { store, hosts, now } = options;
  const [stored, read] = await Promise.all([store.listInstances(), readWindows(options)]);
  const defaultZone = options.config.DEFAULT.default_availability_zone;
  return {
    ...fleetOf({ hosts, stored, windows: read.windows, now, defaultZone }),
    windowSource: read.source,
  };
}

export interface FleetParts {
  hosts: readonly StoredHost[];
  /** Parsed by this read (listInstances): they are given their samples in place, not copied. */
  stored: StoredInstance[];
  /** Each host's window, in the order of `hosts`. */
  windows: readonly NodeSeries[];
  now: Date;
  defaultZone: string;
}

/** The fleet from what the store returned (pure: readFleet does the reading). */
export function fleetOf(parts: FleetParts): Omit<FleetRead, 'windowSource'> {
  const { hosts, windows, now, defaultZone } = parts;
  const byNode = new Map(windows.map((w, i) => [nodeKey(hosts[i].state), w]));
  const hypervisors: HypervisorReport[] = hosts.map((h) => ({
    host: h.state.host,
    nodename: h.state.nodename,
    availability_zone: h.state.availability_zone ?? defaultZone,
    reported_at: h.reported_at,
    state: h.state,
    samples: NO_SAMPLES,
  }));
  const observedHosts = hypervisors.map(
    (h, i): HostObservation => ({
      host: h.host,
      availability_zone: h.availability_zone,
      vcpus_total: h.state.vcpus_total,
      samples: windows[i].host,
    }),
  );
  const instances = parts.stored as InstanceReport[];
  const vms = instances.map((vm): VmObservation => {
    vm.samples = NO_SAMPLES;
    return {
      uuid: vm.uuid,
      host: vm.host,
      last_migrated_at: vm.last_migrated_at,
      flavor: vm.flavor,
      samples: byNode.get(nodeKey(vm))?.instances.get(vm.uuid) ?? EMPTY_SERIES,
    };
  });
  return {
    now,
    hypervisors: withInternedStates(hypervisors, instances),
    instances,
    history: [],
    previouslySuffering: [],
    observed: { hosts: observedHosts, vms },
  };
}

/** Reports read from the store carry their samples in `observed`. */
const NO_SAMPLES = Object.freeze([]) as never[];

/** Each host's window, in the order of `hosts`. */
async function readWindows(
  options: FleetReadOptions,
): Promise<{ windows: NodeSeries[]; source: WindowSource }> {
  const { store, hosts } = options;
  const { from, to } = sampleWindow(options.now, options.settings);
  const full = async () =>
    (
      await mapLimit(hosts, options.concurrency, (h) =>
        store.nodeWindow(h.state.host, h.state.nodename, from, to),
      )
    ).map(nodeSeriesOf);
  if (options.full) return { windows: await full(), source: 'full' };
  const kept = to.getTime() - from.getTime() <= WINDOW_KEEP_SECONDS * 1000;
  if (!(kept && digestsCover(await store.digestsWrittenSince(), from))) {
    return { windows: await full(), source: 'full: digests do not cover the window' };
  }
  const { nodes } = await store.fleetWindows(from, to);
  const none: NodeSeries = { host: EMPTY_SERIES, instances: new Map() };
  const windows = hosts.map((h) => nodes.get(nodeEntityKey(h.state)) ?? none);
  return { windows, source: 'digests' };
}

const nodeKey = (n: { host: string; nodename: string }) => `${n.host}\u0000${n.nodename}`;
