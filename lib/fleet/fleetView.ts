/**
 * The fleet as an operator reads it: each compute node by availability zone, with capacity used
 * against Nova's limits (capacity × allocation ratio), its VMs and its CPU steal. Built from the
 * fleet store; printed by `placid fleet` (text or JSON).
 */
import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import { allocationRatio, type ResourceKind } from '../engine/ratios.js';
import type { HostState } from '../model/hostState.js';
import { serviceIsUp } from '../model/liveness.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { StoredHost } from '../store/hostItems.js';
import { type MovedInstance, movedUsage, type UsageDelta } from './movedUsage.js';
import { readHostSteal, type StealReading } from './steal.js';

export interface Capacity {
  used: number;
  total: number;
  /** Allocation ratio in force (Nova's rules: config, else the host's, else the initial default). */
  ratio: number;
  /** total × ratio: what the Core/RAM/Disk filters let the node hand out. */
  limit: number;
}

export interface HostView {
  host: string;
  nodename: string;
  availability_zone: string | null;
  status: 'up' | 'down' | 'disabled';
  vcpus: Capacity;
  ram_mb: Capacity;
  disk_gb: Capacity;
  /** Instances whose latest report puts them on this node. */
  vms: number;
  /** What the hypervisor itself counts (pending claims included). */
  num_instances: number;
  steal: StealReading;
  /** The host's newest report: its stored state's, or a later sighting of the same state. */
  reported_at: string;
  report_age_seconds: number;
}

export interface FleetView {
  at: string;
  window_minutes: number;
  zones: { availability_zone: string | null; hosts: HostView[] }[];
  totals: { hosts: number; vms: number };
}

export interface FleetViewOptions {
  /** The moment to look at (default now): the window ends here, ages are measured from here. */
  at?: Date;
  windowMinutes?: number;
  config?: SchedulerConfig;
}

export const DEFAULT_WINDOW_MINUTES = 10;

export async function readFleetView(store: FleetStore, options: FleetViewOptions = {}): Promise<FleetView> {
  const at = options.at ?? store.now();
  const windowMinutes = options.windowMinutes ?? DEFAULT_WINDOW_MINUTES;
  const config = options.config ?? defaultConfig();
  const window = { from: new Date(at.getTime() - windowMinutes * 60_000), to: at };
  const [hosts, instances] = await Promise.all([store.listHosts(), store.listInstances()]);
  const vmsByNode = new Map<string, string[]>();
  const byUuid = new Map<string, MovedInstance>();
  for (const stored of instances) {
    // StoredInstance is an Omit over an index signature, which loses the named fields' types.
    const i = stored as unknown as MovedInstance;
    byUuid.set(i.uuid, i);
    const key = nodeKey(i);
    const vms = vmsByNode.get(key);
    if (vms) vms.push(i.uuid);
    else vmsByNode.set(key, [i.uuid]);
  }
  const views = await mapLimit(hosts, 16, async (stored) => {
    const vms = vmsByNode.get(nodeKey(stored.state)) ?? [];
    const steal = await readHostSteal(store, stored.state, vms, window);
    const moved = movedUsage(stored.state, stored.reported_at, byUuid, vms);
    return hostView(stored, vms.length, steal, at, config, moved);
  });
  return {
    at: at.toISOString(),
    window_minutes: windowMinutes,
    zones: byZone(views),
    totals: { hosts: views.length, vms: views.reduce((n, v) => n + v.vms, 0) },
  };
}

function hostView(
  stored: StoredHost,
  vms: number,
  steal: StealReading,
  at: Date,
  config: SchedulerConfig,
  moved: UsageDelta,
): HostView {
  const s = stored.state;
  // An unchanged state is not rewritten; its later reports arrive as sightings (hostSightings.ts).
  const newestReport = stored.seen_at ?? stored.reported_at;
  const capacity = (kind: ResourceKind, used: number, total: number): Capacity => {
    const ratio = allocationRatio(s, kind, config);
    return { used, total, ratio, limit: total * ratio };
  };
  return {
    host: s.host,
    nodename: s.nodename,
    availability_zone: s.availability_zone,
    status: status(s, at, config.DEFAULT.service_down_time),
    vcpus: capacity('cpu', s.vcpus_used + moved.vcpus, s.vcpus_total),
    ram_mb: capacity('ram', s.total_usable_ram_mb - s.free_ram_mb + moved.memory_mb, s.total_usable_ram_mb),
    disk_gb: capacity(
      'disk',
      s.total_usable_disk_gb - s.free_disk_mb / 1024 + moved.disk_gb,
      s.total_usable_disk_gb,
    ),
    vms,
    num_instances: s.num_instances,
    steal,
    reported_at: newestReport,
    // A report up to the allowed clock skew ahead of the reader reads as just now.
    report_age_seconds: Math.max(0, Math.round((at.getTime() - Date.parse(newestReport)) / 1000)),
  };
}

/** As ComputeFilter sees it: a host whose last report is older than service_down_time is down. */
function status(s: HostState, at: Date, downTimeSeconds: number): HostView['status'] {
  if (s.service.disabled) return 'disabled';
  return serviceIsUp(s.service, at, downTimeSeconds) ? 'up' : 'down';
}

function byZone(views: HostView[]): FleetView['zones'] {
  const zones = new Map<string | null, HostView[]>();
  for (const v of views) {
    const hosts = zones.get(v.availability_zone);
    if (hosts) hosts.push(v);
    else zones.set(v.availability_zone, [v]);
  }
  const name = (z: string | null) => z ?? '\uffff'; // hosts without a zone last
  return [...zones.entries()]
    .sort(([a], [b]) => name(a).localeCompare(name(b)))
    .map(([availability_zone, hosts]) => ({
      availability_zone,
      hosts: hosts.sort((a, b) => a.host.localeCompare(b.host) || a.nodename.localeCompare(b.nodename)),
    }));
}

function nodeKey(n: { host: string; nodename: string }): string {
  return `${n.host}\u0000${n.nodename}`;
}
