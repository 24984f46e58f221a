/**
 * The migration planner: from a fleet's samples to a plan of live migrations that relieves the
 * suffering VMs, each destination chosen by the placement engine, every move accounting for the
 * ones before it (PlanState), every considered VM given a reason. Hosts are relieved one by one
 * (relief.ts), the most crowded first; moves are grouped into waves as they are accepted (waves.ts).
 * @example
 * const plan = await planRebalance({ fleet: parseFleetDocument(doc, 'fleet.json'), settings });
 */
import { defaultConfig, type SchedulerConfig } from '../config/options.js';
import type { Plugins } from '../engine/registry.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { InstanceReport } from '../model/reports.js';
import { type Candidate, ineligibility } from './candidates.js';
import { cooldownOf, pingPongReason, recentSources } from './cooldown.js';
import { migrationCost } from './cost.js';
import { findDestinations, type GroupMember } from './destination.js';
import { detect } from './detect.js';
import { type FleetInput, hostObservation } from './fleetInput.js';
import { describeMove, type MovePurpose } from './moveReason.js';
import { predictOutcome } from './outcome.js';
import { buildPlan } from './plan.js';
import { createPlannerScheduler } from './plannerScheduler.js';
import { PlanState } from './planState.js';
import type { Plan, PlannedMigration, Skip } from './planTypes.js';
import { finalSkips } from './recovery.js';
import { relieveHost } from './relief.js';
import type { RebalanceSettings } from './settings.js';
import { hostSteal, stealAfterAdding, stealAfterRemoving } from './stealModel.js';
import type { DetectionReport, HostDetection, MigrationRecord, VmDetection } from './types.js';
import { guestSteal, vmShare } from './vmSteal.js';
import { WavePlanner } from './waves.js';

export interface PlannerInput {
  fleet: FleetInput;
  settings: RebalanceSettings;
  /** The operator's scheduler config (filters, ratios); Nova's defaults when omitted. */
  config?: SchedulerConfig;
  /** Custom filters/weighers named in `config` (loadPluginModules). */
  plugins?: Plugins;
  /** A detection already made for this fleet (the detector's run); made here when omitted. */
  detection?: DetectionReport;
}

/** Plans the migrations for one fleet snapshot. */
export async function planRebalance(input: PlannerInput): Promise<Plan> {
  const planner = new Planner(input);
  for (const host of planner.hostsToRelieve()) await relieveHost(planner, host);
  const outcome = predictOutcome(
    planner.detection,
    planner.migrations,
    vcpusOnTouchedHosts(input.fleet, planner.migrations),
    input.settings,
  );
  return buildPlan({
    now: input.fleet.now,
    settings: input.settings,
    detection: planner.detection,
    migrations: planner.migrations,
    skipped: finalSkips(planner, outcome),
    waves: planner.waves.summary(),
    lowerBoundBytes: planner.lowerBoundBytes,
    outcome,
  });
}

/** One planning run's state; relief.ts drives it host by host. */
export class Planner {
  readonly detection: DetectionReport;
  readonly state: PlanState;
  readonly waves: WavePlanner;
  readonly settings: RebalanceSettings;
  readonly now: Date;
  readonly migrations: PlannedMigration[] = [];
  /** Why each considered VM did not move (the latest reason wins). */
  readonly skips = new Map<string, Skip>();
  lowerBoundBytes = 0;
  private readonly scheduler: Scheduler;
  /** Instances and detections of the VMs that may be considered: those on hosts with suffering VMs. */
  private readonly instances = new Map<string, InstanceReport>();
  private readonly vmDetections = new Map<string, VmDetection>();
  private readonly history: Map<string, MigrationRecord[]>;
  private readonly groups = new Map<string, GroupMember[]>();
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
    this.history = groupBy(fleet.history, (r) => r.instance_uuid);
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
          (b.stealPercent ?? 0) - (a.stealPercent ?? 0) ||
          a.host.localeCompare(b.host),
      );
  }

  instance(uuid: string): InstanceReport | undefined {
    return this.instances.get(uuid);
  }

  detectionOf(uuid: string): VmDetection | undefined {
    return this.vmDetections.get(uuid);
  }

  /** A VM's flavor vCPUs (VMs that may be considered, and those the plan moves). */
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

  skip(uuid: string, skip: Skip): void {
    this.skips.set(uuid, skip);
  }

  /**
   * Plans moving `c` if the engine finds a destination whose move is worth it and has room in a
   * wave (the engine's choice first, then its alternates). Returns true when planned.
   */
  async attempt(c: Candidate, purpose: MovePurpose): Promise<boolean> {
    const { vm } = c;
    const source = this.state.hostOf(vm.uuid, vm.host);
    // When no wave has room for anything leaving this source, no destination can change that.
    const leaving = this.waves.slot({
      source,
      dest: '',
      zone: vm.availability_zone,
      seconds: c.cost.seconds,
    });
    if (!leaving.ok) {
      this.skip(vm.uuid, { code: leaving.code, reason: leaving.reason });
      return false;
    }
    const query = {
      vm,
      source,
      demandVcpus: c.demandVcpus,
      excluded: this.noReturnHosts(vm.uuid, source),
      groupMembers: vm.server_group ? (this.groups.get(vm.server_group.name) ?? []) : [],
      limits: {
        hostStealThresholdPercent: this.settings.host_steal_threshold_percent,
        maxSameRolePerHost: this.settings.max_same_role_per_host,
      },
      requestId: `rebalance-${vm.uuid}`,
    };
    const found = await findDestinations(this.scheduler, this.state, query, this.now);
    if (!found.ok) {
      this.skip(vm.uuid, { code: 'no_destination', reason: found.reason });
      return false;
    }
    const sourceLoad = this.state.load(source);
    const steal = {
      sourceBefore: sourceLoad ? hostSteal(sourceLoad) : c.stealPercent,
      sourceAfter: sourceLoad ? stealAfterRemoving(sourceLoad, [c.demandVcpus]) : c.stealPercent,
    };
    let refusal: Skip | undefined;
    for (const dest of found.hosts) {
      const destLoad = this.state.load(dest);
      if (!destLoad) continue;
      const destBefore = hostSteal(destLoad);
      const destAfter = stealAfterAdding(destLoad, [c.demandVcpus]);
      const vmAfter = guestSteal(c.share, destAfter);
      const benefit =
        purpose.kind === 'victim' ? c.stealPercent - vmAfter : steal.sourceBefore - steal.sourceAfter;
      if (benefit < this.settings.min_benefit_percent) {
        refusal ??= tooLittleBenefit(purpose, benefit, this.settings.min_benefit_percent, dest);
        continue;
      }
      const move = { source, dest, zone: vm.availability_zone, seconds: c.cost.seconds };
      const slot = this.waves.slot(move);
      if (!slot.ok) {
        refusal ??= { code: slot.code, reason: slot.reason };
        continue;
      }
      this.waves.add(move, slot);
      this.state.apply({
        vm: { ...vm, role: vm.role ?? null },
        demandVcpus: c.demandVcpus,
        source,
        dest,
        spec: found.spec,
      });
      this.moved.add(vm.uuid);
      this.skips.delete(vm.uuid);
      const gain = { ...steal, destBefore, destAfter, vmAfter };
      this.migrations.push(
        describeMove({ c, purpose, source, dest, wave: slot.wave, startsAt: slot.startsAt, gain }),
      );
      return true;
    }
    this.skip(vm.uuid, refusal ?? { code: 'no_destination', reason: 'no destination with a known steal' });
    return false;
  }

  /** Hosts the VM left within no_return_hours: never its destination (no ping-pong). */
  private noReturnHosts(uuid: string, source: string): Map<string, string> {
    const out = new Map<string, string>();
    const sources = recentSources(uuid, this.history.get(uuid) ?? [], this.now, this.settings);
    for (const host of sources.keys()) {
      if (host === source) continue;
      out.set(host, pingPongReason(sources, host, this.now, this.settings) ?? 'no ping-pong');
    }
    return out;
  }
}

/** vCPUs of the VMs on hosts the migrations leave or reach: the outcome re-predicts only those. */
function vcpusOnTouchedHosts(
  fleet: FleetInput,
  migrations: readonly PlannedMigration[],
): (uuid: string) => number | undefined {
  const touched = new Set(migrations.flatMap((m) => [m.source_host, m.dest_host]));
  const vcpus = new Map<string, number>();
  for (const vm of fleet.instances) if (touched.has(vm.host)) vcpus.set(vm.uuid, vm.flavor.vcpus);
  return (uuid) => vcpus.get(uuid);
}

function tooLittleBenefit(purpose: MovePurpose, benefit: number, min: number, dest: string): Skip {
  const what = purpose.kind === 'victim' ? 'its own steal would drop' : 'its host steal would drop';
  return {
    code: 'too_little_benefit',
    reason: `too little benefit: moving it to ${dest} (the best destination), ${what} by ${benefit.toFixed(1)} points, below min_benefit_percent ${min}`,
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) push(out, key(item), item);
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
