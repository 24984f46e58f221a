/**
 * One planning run: the detection, the fleet as the planned moves leave it (PlanState), the waves,
 * the migrations and skips so far, and look-ups of the VMs that may be considered. relief.ts
 * drives it host by host; attempt.ts plans one move at a time.
 */
import { defaultConfig } from '../config/options.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { PlannedMigration, Skip } from '../model/plan.js';
import type { InstanceReport } from '../model/reports.js';
import { type Candidate, ineligibility } from './candidates.js';
import { cooldownOf } from './cooldown.js';
import { migrationCost } from './cost.js';
import { SearchBudget } from './coverSearch.js';
import type { GroupMember } from './destination.js';
import { detect } from './detect.js';
import { hostObservation } from './fleetInput.js';
import type { HostBound } from './lowerBound.js';
import type { PlannerInput } from './planner.js';
import { createPlannerScheduler } from './plannerScheduler.js';
import { PlanState } from './planState.js';
import type { RebalanceSettings } from './settings.js';
import type { DetectionReport, HostDetection, MigrationRecord, VmDetection } from './types.js';
import { vmShare } from './vmSteal.js';
import { WavePlanner } from './waves.js';

/**
 * The exact search's budget per plan, in DP cells (a cell is a few nanoseconds: this is about
 * 20-40 ms on one core). Counted in cells rather than milliseconds so the same fleet always gives
 * the same plan (the plan id is a hash of its decisions). Generated fleets of 1,000 hosts use a
 * small part of it; past it, each host falls back to the greedy.
 */
export const SEARCH_BUDGET_CELLS = 8_000_000;

export class PlanRun {
  readonly detection: DetectionReport;
  readonly state: PlanState;
  readonly waves: WavePlanner;
  readonly scheduler: Scheduler;
  readonly settings: RebalanceSettings;
  readonly now: Date;
  readonly migrations: PlannedMigration[] = [];
  /** Why each considered VM did not move (the latest reason wins). */
  readonly skips = new Map<string, Skip>();
  /** Past moves by VM. */
  readonly history: ReadonlyMap<string, MigrationRecord[]>;
  /** Server-group members by group name. */
  readonly groups = new Map<string, GroupMember[]>();
  /** Per host with suffering VMs: its lower bound (lowerBound.ts), null when it cannot be relieved fully. */
  readonly hostBounds = new Map<string, HostBound | null>();
  /** DP cells the exact relief search may fill in this run before the greedy takes over. */
  readonly searchBudget = new SearchBudget(SEARCH_BUDGET_CELLS);
  /** Instances and detections of the VMs that may be considered: those on hosts with suffering VMs. */
  private readonly instances = new Map<string, InstanceReport>();
  private readonly vmDetections = new Map<string, VmDetection>();
  private readonly onHost = new Map<string, string[]>();
  private readonly candidates = new Map<string, Candidate | Skip>();
  private readonly moved = new Set<string>();

  constructor(input: PlannerInput) {
    const { fleet, settings } = input;
    const config = input.config ?? defaultConfig();
    this.settings = settings;
    this.now = fleet.now;
    this.detection =
      input.detection ??
      detect(
        {
          now: fleet.now,
          hosts: fleet.hypervisors.map(hostObservation),
          vms: fleet.instances,
          previouslySuffering: fleet.previouslySuffering,
        },
        settings,
      );
    this.state = new PlanState(
      fleet.hypervisors.map((h) => h.state),
      this.detection.hosts,
      fleet.instances,
      config,
    );
    this.scheduler = createPlannerScheduler(config, input.plugins);
    const expires = new Date(fleet.now.getTime() + settings.plan_ttl_minutes * 60_000);
    this.waves = new WavePlanner(settings, fleet.now, expires);
    const history = new Map<string, MigrationRecord[]>();
    for (const r of fleet.history) push(history, r.instance_uuid, r);
    this.history = history;
    // Only VMs on hosts with suffering VMs can be considered: index those, not the whole fleet.
    const relieved = new Set(this.detection.hosts.filter((h) => h.victims.length > 0).map((h) => h.host));
    for (const vm of fleet.instances) {
      if (relieved.has(vm.host)) {
        this.instances.set(vm.uuid, vm);
        push(this.onHost, vm.host, vm.uuid);
      }
      if (vm.server_group) push(this.groups, vm.server_group.name, { uuid: vm.uuid, host: vm.host });
    }
    for (const d of this.detection.vms) if (relieved.has(d.host)) this.vmDetections.set(d.uuid, d);
  }

  /** Hosts with suffering VMs: contended first, then the most victims, then the most steal. */
  hostsToRelieve(): HostDetection[] {
    return this.detection.hosts
      .filter((h) => h.victims.length > 0)
      .sort(
        (a, b) =>
          Number(b.status === 'contended') - Number(a.status === 'contended') ||
          b.victims.length - a.victims.length ||
          (b.evidence.lossPercent ?? 0) - (a.evidence.lossPercent ?? 0) ||
          a.host.localeCompare(b.host),
      );
  }

  detectionOf(uuid: string): VmDetection | undefined {
    return this.vmDetections.get(uuid);
  }

  /** A VM's flavor vCPUs (VMs that may be considered). */
  readonly vcpusOf = (uuid: string): number | undefined => this.instances.get(uuid)?.flavor.vcpus;

  /** The VMs reported on `host` before any planned move (hosts with suffering VMs). */
  vmsOnHost(host: string): readonly string[] {
    return this.onHost.get(host) ?? [];
  }

  hasMoved(uuid: string): boolean {
    return this.moved.has(uuid);
  }

  /** The VM as a move candidate, or why it cannot move at all (computed once). */
  candidate(uuid: string): Candidate | Skip | undefined {
    const cached = this.candidates.get(uuid);
    if (cached) return cached;
    const vm = this.instances.get(uuid);
    const detection = this.vmDetections.get(uuid);
    if (!vm || !detection) return undefined;
    const cost = migrationCost(vm, this.settings);
    const cooldown = cooldownOf(vm, this.history.get(uuid) ?? [], this.now, this.settings);
    const share = vmShare(detection, vm.flavor.vcpus);
    const result: Candidate | Skip =
      ineligibility(detection, cost, cooldown) ??
      (share === null
        ? { code: 'no_data', reason: `no usable demand: ${detection.reason}` }
        : {
            vm,
            detection,
            demandVcpus: share.demandVcpus,
            stealPercent: detection.steal?.mean ?? 0,
            share,
            suffering: detection.status === 'suffering',
            cost,
          });
    this.candidates.set(uuid, result);
    return result;
  }

  addHostBound(host: HostDetection, bound: HostBound | null): void {
    this.hostBounds.set(host.host, bound);
  }

  skip(uuid: string, skip: Skip): void {
    this.skips.set(uuid, skip);
  }

  /** Records a planned migration (the state and waves were already updated). */
  record(migration: PlannedMigration): void {
    this.migrations.push(migration);
    this.moved.add(migration.instance_uuid);
    this.skips.delete(migration.instance_uuid);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
