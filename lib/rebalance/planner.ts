/**
 * The migration planner: from a fleet's samples to a plan of live migrations that relieves the
 * suffering VMs, each destination chosen by the placement engine (attempt.ts, destination.ts),
 * every move accounting for the ones before it (planState.ts), every considered VM given a reason
 * (recovery.ts). Hosts are relieved one by one, the most crowded first, with the fewest bytes
 * (relief.ts); moves are grouped into waves as they are accepted (waves.ts).
 */
import type { SchedulerConfig } from '../config/options.js';
import type { Plugins } from '../engine/registry.js';
import type { Plan, PlannedMigration } from '../model/plan.js';
import type { FleetInput } from './fleetInput.js';
import { type Outcome, predictOutcome } from './outcome.js';
import { buildPlan, type PlanLowerBound } from './plan.js';
import { PlanRun } from './planRun.js';
import { finalSkips } from './recovery.js';
import { relieveHost } from './relief.js';
import type { RebalanceSettings } from './settings.js';
import type { DetectionReport } from './types.js';

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

/**
 * Plans the migrations for one fleet snapshot.
 * @example
 * const plan = await planRebalance({ fleet: parseFleetDocument(doc, 'fleet.json'), settings });
 */
export async function planRebalance(input: PlannerInput): Promise<Plan> {
  const run = new PlanRun(input);
  for (const host of run.hostsToRelieve()) await relieveHost(run, host);
  const vcpus = vcpusOnTouchedHosts(input.fleet, run.migrations);
  const outcome = predictOutcome(run.detection, run.migrations, vcpus, input.settings);
  return buildPlan({
    now: input.fleet.now,
    settings: input.settings,
    detection: run.detection,
    migrations: run.migrations,
    skipped: finalSkips(run, outcome),
    waves: run.waves.summary(),
    lowerBound: coveredBound(run, outcome),
    outcome,
  });
}

/**
 * The lower bound over the hosts whose every suffering VM (of those any plan could relieve) the
 * plan is predicted to relieve: there the plan moves at least the bound, so bytes / bound measures
 * its choices alone. Hosts it leaves suffering (out of destinations, budget or time) are left out.
 */
function coveredBound(run: PlanRun, outcome: Outcome): PlanLowerBound {
  const left = new Set(outcome.sufferingLeft);
  const hosts: string[] = [];
  let bytes = 0;
  let covered = 0;
  for (const [host, bound] of run.hostBounds) {
    if (!bound || bound.covers.some((uuid) => left.has(uuid))) continue;
    hosts.push(host);
    bytes += bound.bytes;
    covered += bound.covers.length;
  }
  const inScope = new Set(hosts);
  const planBytes = run.migrations
    .filter((m) => inScope.has(m.source_host))
    .reduce((n, m) => n + m.estimated_bytes, 0);
  return { bytes, hosts: hosts.sort(), sufferingVms: covered, planBytes };
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
