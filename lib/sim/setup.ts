/**
 * What both runs of a simulation share: the scenario, the fleet as it starts, the noisy
 * neighbours' schedule and the local time of every minute. Each run builds its own World from it,
 * so the two start identical and draw identical noise.
 */
import { ConstraintChecker } from './constraints.js';
import { buildLayout, type Layout } from './layout.js';
import { localMinutes } from './loadCurve.js';
import { RunRecorder } from './metrics.js';
import { type NoisyPlan, noisySchedule } from './noisySchedule.js';
import type { Violation } from './result.js';
import type { Scenario } from './scenario.js';
import { hostUsage } from './usage.js';
import { World } from './world.js';

export interface SimSetup {
  scenario: Scenario;
  layout: Layout;
  noisy: NoisyPlan[];
  local: Uint16Array;
  buckets: number;
}

export function prepareSimulation(scenario: Scenario): SimSetup {
  const layout = buildLayout(scenario);
  const local = localMinutes(scenario.start, scenario.minutes, scenario.timezone);
  return {
    scenario,
    layout,
    noisy: noisySchedule(scenario, layout, local),
    local,
    buckets: Math.ceil(scenario.minutes / scenario.bucketMinutes),
  };
}

/** A fresh world and a recorder of it for one run. */
export function startRun(setup: SimSetup): { world: World; recorder: RunRecorder } {
  const { scenario } = setup;
  const world = new World(setup.layout, scenario, setup.noisy, setup.local);
  const recorder = new RunRecorder(world, scenario.start, scenario.bucketMinutes, setup.buckets, {
    steal: scenario.rebalance.steal_threshold_percent,
    load5PerVcpu: scenario.rebalance.load5_per_vcpu_threshold,
  });
  return { world, recorder };
}

/** The run without Placid: the world left alone (its capacity and zones still checked). */
export function runWithoutPlacid(setup: SimSetup, onMinute?: (m: number) => void) {
  const { world, recorder } = startRun(setup);
  const checker = new ConstraintChecker(setup.layout, setup.scenario);
  const start = setup.scenario.start.getTime();
  for (let m = 0; m < setup.scenario.minutes; m++) {
    world.step(m);
    // Nothing moves without Placid: capacity and zones only need checking once.
    if (m === 0) checker.checkMinute(start, hostUsage(setup.layout, world.hostOf, []), world.hostOf);
    recorder.record(m, { migrationsRunning: 0, bandwidthMbps: 0 });
    onMinute?.(m);
  }
  return { measurements: recorder.finish(), violations: checker.violations as Violation[] };
}
