/**
 * The run with Placid: the same world as the baseline, watched and acted on by the real pipeline on
 * its local stand-ins. Every simulated minute: the world steps (VMs where Nova has them), the agents
 * sample, the migration executions run through the minute on the simulated clock; every
 * `report_interval_minutes` the agents' reports go through the ingest stage into dynalite; the
 * detector (reconcile) runs; its plan messages go through the plan queue to the real plan starter,
 * which starts executions of the real state machine on the simulated drivers (simulatedPlacid.ts).
 * After the last minute, running executions may finish (up to WIND_DOWN_MINUTES, not measured), so
 * their outcome is known and nothing is left cordoned or locked.
 */

import type { MigrationOutcome } from '../workflow/ports.js';
import { Agents } from './agents.js';
import { ConstraintChecker } from './constraints.js';
import type { RunMeasurements } from './metrics.js';
import { MigrationLog } from './migrationLog.js';
import type { PhaseTimer } from './phaseTimer.js';
import { PLAN_STAGE } from './planStage.js';
import type { DecisionLog, MigrationEvent, RunMetrics } from './result.js';
import { simSchedulerConfig } from './schedulerConfig.js';
import { type SimSetup, startRun } from './setup.js';
import { openSimulatedPlacid, type StackOptions } from './simulatedPlacid.js';
import { hostUsage } from './usage.js';

const WIND_DOWN_MINUTES = 180;

export interface PlacidRun {
  measurements: RunMeasurements;
  metrics: Omit<
    RunMetrics,
    'vm_minutes_in_steal' | 'suffering_vm_minutes' | 'p95_steal_percent' | 'max_steal_percent'
  >;
  events: MigrationEvent[];
  decisions: DecisionLog;
  /** Outcomes the workflow recorded, by migration id. */
  outcomes: ReadonlyMap<string, MigrationOutcome>;
  /** What the stand-ins hold at the end (leases, cordons, maintenance), for checks. */
  leftovers: { leases: string[]; cordoned: string[]; maintenance: string[] };
  /** Where Nova has each VM at the end (uuid → host). */
  finalHosts: ReadonlyMap<string, string>;
}

export async function runWithPlacid(
  setup: SimSetup,
  timer: PhaseTimer,
  onMinute?: (m: number) => void,
  stackOptions?: StackOptions,
): Promise<PlacidRun> {
  const { scenario, layout } = setup;
  const start = scenario.start.getTime();
  const { world, recorder } = startRun(setup);
  const stack = await openSimulatedPlacid(setup, timer, stackOptions);
  const { clock, fleet, pipeline, executions } = stack;
  const checker = new ConstraintChecker(layout, scenario);
  let peakBandwidth = 0;
  fleet.listener = {
    started: (at, m, running) => {
      checker.checkStart(at, m, running, world.hostOf);
      peakBandwidth = Math.max(
        peakBandwidth,
        running.reduce((n, r) => n + r.rateMbps, 0),
      );
    },
    ended: (at, m, status) => {
      if (status === 'completed') checker.moved(at, m);
    },
  };
  const agents = new Agents(layout, scenario.host);
  const log = new MigrationLog();
  const config = simSchedulerConfig(scenario.reportIntervalMinutes);
  const iso = (ms: number) => new Date(ms).toISOString();
  const lastMigratedAt = (vm: number) => {
    const at = fleet.lastMigratedAt.get(vm);
    return at === undefined ? null : iso(at);
  };
  try {
    for (let m = 0; m < scenario.minutes; m++) {
      const t = start + m * 60_000;
      const end = t + 60_000;
      await timer.time('world', () => {
        fleet.sync(world);
        world.step(m);
        checker.checkMinute(t, hostUsage(layout, world.hostOf, fleet.arrivals()), world.hostOf);
        recorder.record(m, { migrationsRunning: fleet.running.size, bandwidthMbps: fleet.bandwidthMbps() });
        agents.sample(world, iso(end), fleet.linkMbps());
      });
      await timer.time('workflow', () => clock.advanceTo(end));
      if ((m + 1) % scenario.reportIntervalMinutes === 0) {
        await timer.time('ingest', () => {
          fleet.sync(world);
          const usage = hostUsage(layout, world.hostOf, fleet.arrivals());
          return stack.ingest(agents.messages(iso(end), usage, lastMigratedAt));
        });
      }
      const result = await timer.time('detector', () =>
        stack.reconcile({ store: pipeline.store, settings: scenario.rebalance, config }),
      );
      if (result.plan) log.onPlan(result.plan);
      else if (result.considered) log.onSkips(result.considered);
      await timer.time('workflow', () =>
        pipeline.queues(PLAN_STAGE).queue.drain({ waitForInvisible: false }),
      );
      onMinute?.(m);
    }
    await timer.time('wind-down', async () => {
      const limit = start + (scenario.minutes + WIND_DOWN_MINUTES) * 60_000;
      for (
        let next = clock.nextWake();
        executions.running > 0 && next !== undefined && next <= limit;
        next = clock.nextWake()
      ) {
        await clock.advanceTo(next);
      }
      fleet.sync(world);
    });
    const events = log.events(executions.records.values(), stack.outcomes, layout);
    const count = (s: MigrationEvent['status']) => events.filter((e) => e.status === s).length;
    const moved = events.filter((e) => e.status === 'succeeded').reduce((n, e) => n + e.bytes, 0);
    return {
      measurements: recorder.finish(),
      metrics: {
        plans: log.plans,
        migrations: {
          started: events.length,
          succeeded: count('succeeded'),
          failed: count('failed'),
          rolled_back: count('rolled_back'),
        },
        gb_moved: Math.round((moved / 2 ** 30) * 10) / 10,
        peak_bandwidth_mbps: Math.round(peakBandwidth),
        violations: checker.violations,
      },
      events,
      decisions: log.decisionLog(),
      outcomes: stack.outcomes,
      leftovers: await stack.leftovers(),
      finalHosts: new Map([...fleet.servers].map(([uuid, server]) => [uuid, server.host])),
    };
  } finally {
    await stack.close();
  }
}
