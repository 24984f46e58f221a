/**
 * The fleet as the moves planned so far leave it: host states (capacity), CPU loads (the steal
 * model), role counts and where each moved VM went. The planner applies each move here before
 * planning the next, so every move accounts for the ones before it. It is the PlannedFleetView that
 * move requests carry to Placid's filters and weigher; it changes only between two requests.
 *
 * The engine indexes a fleet once per hosts array, so a new Fleet costs a pass over every host of
 * the cell. Rather than one per move, a cell's Fleet is rebuilt once STALE_LIMIT hosts changed;
 * until then the changed hosts are "stale" there and the planner lists them in the request's
 * ignore_hosts (a destination just chosen waits for the next rebuild, which also spreads the
 * moves; sources never are destinations: HostStealFilter refuses relieved hosts). Loads and role
 * counts are always current: filters read them through this view, not from the Fleet.
 */
import type { SchedulerConfig } from '../config/options.js';
import { Fleet } from '../engine/fleet.js';
import type { HostState } from '../model/hostState.js';
import type { InstanceReport } from '../model/reports.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { type MovingInstance, withInstanceAdded, withInstanceRemoved } from './hostUsage.js';
import type { PlannedFleetView } from './moveContext.js';
import { type HostLoad, withDemand } from './stealModel.js';
import type { HostDetection } from './types.js';

export interface AppliedMove {
  vm: MovingInstance & { role: string | null };
  demandVcpus: number;
  source: string;
  dest: string;
  spec: RequestSpec;
}

const NO_HOSTS: ReadonlyMap<string, number> = new Map();
/** Changed hosts a cell's Fleet may lag behind before it is rebuilt. */
export const STALE_LIMIT = 24;

export class PlanState implements PlannedFleetView {
  private readonly hosts = new Map<string, HostState>();
  private readonly cellHosts = new Map<string, string[]>();
  private readonly fleets = new Map<string, Fleet>();
  /** Per cell: hosts changed since its Fleet was built. */
  private readonly stale = new Map<string, Set<string>>();
  private readonly loads = new Map<string, HostLoad>();
  private readonly relieved = new Set<string>();
  /** Role → host → VMs of that role (small maps: a role has a few replicas). */
  private readonly roles = new Map<string, Map<string, number>>();
  private readonly movedTo = new Map<string, string>();

  constructor(
    hosts: readonly HostState[],
    detections: readonly HostDetection[],
    instances: readonly InstanceReport[],
    private readonly config: SchedulerConfig,
  ) {
    for (const host of hosts) {
      if (this.hosts.has(host.host)) continue;
      this.hosts.set(host.host, host);
      push(this.cellHosts, host.cell_uuid ?? '', host.host);
    }
    const missing = new Map<string, string[]>();
    for (const vm of instances) {
      if (vm.role != null) this.addRole(vm.host, vm.role, 1);
      const host = this.hosts.get(vm.host);
      if (host && !Object.hasOwn(host.instances, vm.uuid)) push(missing, vm.host, vm.uuid);
    }
    // Server-group filters look for members in `instances`: add reported VMs a host state lacks.
    for (const [name, uuids] of missing) {
      const host = this.hosts.get(name) as HostState;
      const added = Object.fromEntries(uuids.map((uuid) => [uuid, { uuid }]));
      this.hosts.set(name, { ...host, instances: { ...host.instances, ...added } });
    }
    for (const d of detections) {
      // A host being relieved is never filled: neither a contended one nor one with suffering VMs.
      if (d.status === 'contended' || d.victims.length > 0) this.relieved.add(d.host);
      // A host without VMs needs no samples to be known idle; one whose VMs all lack data is unknown.
      if (d.status !== 'unknown' || d.vmsTotal === 0) {
        this.loads.set(d.host, { capacityVcpus: d.capacityVcpus, demandVcpus: d.demandVcpus });
      }
    }
  }

  load(host: string): HostLoad | undefined {
    return this.loads.get(host);
  }

  contended(host: string): boolean {
    return this.relieved.has(host);
  }

  roleCounts(role: string): ReadonlyMap<string, number> {
    return this.roles.get(role) ?? NO_HOSTS;
  }

  host(name: string): HostState | undefined {
    return this.hosts.get(name);
  }

  /** The host a VM reported on `reportedHost` is on after the planned moves. */
  hostOf(uuid: string, reportedHost: string): string {
    return this.movedTo.get(uuid) ?? reportedHost;
  }

  /** Hosts of the cell its Fleet has not caught up with (to be ignored by requests). */
  staleHosts(cell: string | null): ReadonlySet<string> {
    return this.stale.get(cell ?? '') ?? new Set();
  }

  /**
   * The hosts of one cell (a move never leaves its cell), as a Fleet the engine can index; rebuilt
   * when `fresh` or when STALE_LIMIT hosts have changed.
   */
  /** True when some host names its cell: a host that names none could then be in any. */
  hasCells(): boolean {
    return [...this.cellHosts.keys()].some((key) => key !== '');
  }

  fleetOfCell(cell: string | null, fresh = false): Fleet {
    const key = cell ?? '';
    let fleet = this.fleets.get(key);
    const stale = this.stale.get(key);
    if (!fleet || (stale && (fresh || stale.size >= STALE_LIMIT))) {
      const names = this.cellHosts.get(key) ?? [];
      fleet = Fleet.from(names.map((n) => this.hosts.get(n) as HostState));
      // Keep the engine's interned copies, so the next Fleet copies only the hosts that changed.
      for (const host of fleet.hosts) this.hosts.set(host.host, host);
      this.fleets.set(key, fleet);
      this.stale.delete(key);
    }
    return fleet;
  }

  /** Records a planned move: capacity, CPU load, role counts and location on both sides. */
  apply(move: AppliedMove): void {
    const { vm, source, dest } = move;
    const from = this.hosts.get(source);
    if (from) this.replaceHost(withInstanceRemoved(from, vm));
    const to = this.hosts.get(dest);
    if (to) this.replaceHost(withInstanceAdded(to, vm, move.spec, this.config));
    const sourceLoad = this.loads.get(source);
    if (sourceLoad) this.loads.set(source, withDemand(sourceLoad, -move.demandVcpus));
    const destLoad = this.loads.get(dest);
    if (destLoad) this.loads.set(dest, withDemand(destLoad, move.demandVcpus));
    if (vm.role !== null) {
      this.addRole(source, vm.role, -1);
      this.addRole(dest, vm.role, 1);
    }
    this.movedTo.set(vm.uuid, dest);
  }

  private replaceHost(host: HostState): void {
    this.hosts.set(host.host, host);
    const key = host.cell_uuid ?? '';
    let stale = this.stale.get(key);
    if (!stale) {
      stale = new Set();
      this.stale.set(key, stale);
    }
    stale.add(host.host);
  }

  private addRole(host: string, role: string, delta: number): void {
    let counts = this.roles.get(role);
    if (!counts) {
      counts = new Map();
      this.roles.set(role, counts);
    }
    const n = (counts.get(host) ?? 0) + delta;
    if (n > 0) counts.set(host, n);
    else counts.delete(host);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
