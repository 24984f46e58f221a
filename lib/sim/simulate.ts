/**
 * `placid simulate`'s core: one scenario run twice over the same fleet, load and seed — left alone,
 * then with Placid acting through its real pipeline — and the two compared (SimulationResult).
 */
import { performance } from 'node:perf_hooks';
import type { RunMeasurements } from './metrics.js';
import { PhaseTimer } from './phaseTimer.js';
import { type PlacidRun, runWithPlacid } from './placidRun.js';
import type { RunMetrics, SimulationResult, Violation } from './result.js';
import type { Scenario } from './scenario.js';
import { prepareSimulation, runWithoutPlacid, type SimSetup } from './setup.js';
import type { StackOptions } from './simulatedPlacid.js';

export interface SimulationProgress {
  run: 'baseline' | 'placid';
  /** Minutes simulated so far in this run. */
  minute: number;
  minutes: number;
}

export interface SimulationOptions {
  onProgress?: (progress: SimulationProgress) => void;
  /** How the local stand-ins run (tests compare the fast defaults with the plain way). */
  stack?: StackOptions;
}

export interface SimulationOutput {
  result: SimulationResult;
  timer: PhaseTimer;
  /** The run with Placid in full (outcomes, what the stand-ins hold at the end). */
  placid: PlacidRun;
}

export async function runSimulation(
  scenario: Scenario,
  options: SimulationOptions = {},
): Promise<SimulationOutput> {
  const started = performance.now();
  const timer = new PhaseTimer();
  const progress = (run: SimulationProgress['run']) => (m: number) =>
    options.onProgress?.({ run, minute: m + 1, minutes: scenario.minutes });
  const setup = await timer.time('setup', () => prepareSimulation(scenario));
  const baseline = await timer.time('baseline', () => runWithoutPlacid(setup, progress('baseline')));
  const placid = await runWithPlacid(setup, timer, progress('placid'), options.stack);
  const result: SimulationResult = {
    scenario: {
      name: scenario.name,
      seed: scenario.seed,
      start: scenario.start.toISOString(),
      end: new Date(scenario.start.getTime() + scenario.minutes * 60_000).toISOString(),
      minutes: scenario.minutes,
      zones: scenario.zones,
      hosts: setup.layout.hosts.length,
      vms: setup.layout.vms.length,
      timezone: scenario.timezone,
      report_interval_minutes: scenario.reportIntervalMinutes,
      steal_threshold_percent: scenario.rebalance.steal_threshold_percent,
      mode: scenario.rebalance.mode,
      contention_model: scenario.contentionModel,
    },
    runs: {
      placid: { ...placid.measurements.totals, ...placid.metrics },
      baseline: unmanagedMetrics(baseline.measurements, baseline.violations),
    },
    heatmap: heatmap(setup, placid.measurements, baseline.measurements),
    series: { placid: placid.measurements.series, baseline: baseline.measurements.series },
    migrations: placid.events,
    decisions: placid.decisions,
    elapsed_ms: Math.round(performance.now() - started),
  };
  return { result, timer, placid };
}

function unmanagedMetrics(m: RunMeasurements, violations: Violation[]): RunMetrics {
  return {
    ...m.totals,
    plans: 0,
    migrations: { started: 0, succeeded: 0, failed: 0, rolled_back: 0 },
    gb_moved: 0,
    peak_bandwidth_mbps: 0,
    violations,
  };
}

function heatmap(
  setup: SimSetup,
  placid: RunMeasurements,
  baseline: RunMeasurements,
): SimulationResult['heatmap'] {
  const hosts = [...setup.layout.hosts].sort(
    (a, b) => a.zone.localeCompare(b.zone) || a.name.localeCompare(b.name),
  );
  return {
    bucket_minutes: setup.scenario.bucketMinutes,
    times: baseline.series.map((p) => p.at),
    hosts: hosts.map((h) => ({
      host: h.name,
      zone: h.zone,
      placid: placid.heat[h.index],
      baseline: baseline.heat[h.index],
    })),
  };
}
