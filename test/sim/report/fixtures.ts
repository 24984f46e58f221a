/**
 * SimulationResult fixtures built by hand for the renderer tests: `makeResult` gives a small,
 * consistent result to override piece by piece; `realisticResult` a day of a 60-host fleet for the
 * visual check (test/sim/report/writeSample.ts).
 */
import type {
  DecisionEntry,
  MigrationEvent,
  RunMetrics,
  ScenarioSummary,
  SeriesPoint,
  SimulationResult,
  StealHeatmap,
} from '../../../lib/sim/result.js';

export function makeRun(overrides: Partial<RunMetrics> = {}): RunMetrics {
  return {
    vm_minutes_in_steal: 0,
    suffering_vm_minutes: 0,
    p95_steal_percent: 0,
    max_steal_percent: 0,
    plans: 0,
    migrations: { started: 0, succeeded: 0, failed: 0, rolled_back: 0 },
    gb_moved: 0,
    peak_bandwidth_mbps: 0,
    violations: [],
    ...overrides,
  };
}

export function makeScenario(overrides: Partial<ScenarioSummary> = {}): ScenarioSummary {
  return {
    name: 'unit',
    seed: 7,
    start: '2025-01-06T00:00:00.000Z',
    end: '2025-01-06T04:00:00.000Z',
    minutes: 240,
    zones: ['az1', 'az2'],
    hosts: 4,
    vms: 40,
    contention_model: 'proportional',
    timezone: 'UTC',
    report_interval_minutes: 1,
    steal_threshold_percent: 10,
    mode: 'auto',
    ...overrides,
  };
}

export function makeMigration(overrides: Partial<MigrationEvent> = {}): MigrationEvent {
  return {
    migration_id: 'mig-1',
    plan_id: 'plan-1',
    wave: 1,
    instance_uuid: 'vm-uuid-1',
    vm_name: 'web-0001',
    role: 'web',
    zone: 'az1',
    source_host: 'host-1',
    dest_host: 'host-2',
    started_at: '2025-01-06T01:00:00.000Z',
    ended_at: '2025-01-06T01:05:00.000Z',
    status: 'succeeded',
    bytes: 8 * 2 ** 30,
    reason: 'steal 24.0% on host-1, predicted 3.0% on host-2',
    ...overrides,
  };
}

export function makeDecision(overrides: Partial<DecisionEntry> = {}): DecisionEntry {
  return {
    at: '2025-01-06T01:00:00.000Z',
    plan_id: 'plan-1',
    instance_uuid: 'vm-uuid-1',
    decision: 'moved',
    reason: 'steal 24.0% on host-1',
    ...overrides,
  };
}

/** `hosts` hosts alternating over az1/az2, `buckets` one-hour buckets from the scenario start. */
export function makeHeatmap(hosts: number, buckets: number, start: string): StealHeatmap {
  const t0 = Date.parse(start);
  return {
    bucket_minutes: 60,
    times: Array.from({ length: buckets }, (_, b) => new Date(t0 + b * 3_600_000).toISOString()),
    hosts: Array.from({ length: hosts }, (_, h) => ({
      host: `host-${h + 1}`,
      zone: h % 2 === 0 ? 'az1' : 'az2',
      baseline: Array.from({ length: buckets }, (_, b) => ((h * 7 + b * 3) % 30) + 1),
      placid: Array.from({ length: buckets }, (_, b) => ((h * 7 + b * 3) % 30) / 4),
    })),
  };
}

function flatSeries(times: readonly string[], value: number): SeriesPoint[] {
  return times.map((at) => ({
    at,
    p95_steal_percent: value,
    mean_steal_percent: value / 2,
    suffering_vms: Math.round(value),
    migrations_running: 0,
    bandwidth_mbps: 0,
  }));
}

/** A small consistent result; `overrides` replace whole top-level parts. */
export function makeResult(overrides: Partial<SimulationResult> = {}): SimulationResult {
  const scenario = overrides.scenario ?? makeScenario();
  const heatmap = overrides.heatmap ?? makeHeatmap(scenario.hosts, scenario.minutes / 60, scenario.start);
  return {
    scenario,
    runs: {
      baseline: makeRun({
        vm_minutes_in_steal: 12_000,
        suffering_vm_minutes: 4_000,
        p95_steal_percent: 22.5,
      }),
      placid: makeRun({ vm_minutes_in_steal: 3_000, suffering_vm_minutes: 500, p95_steal_percent: 6 }),
    },
    heatmap,
    series: { baseline: flatSeries(heatmap.times, 20), placid: flatSeries(heatmap.times, 5) },
    migrations: [makeMigration()],
    decisions: { counts: [{ decision: 'moved', count: 1 }], entries: [makeDecision()] },
    elapsed_ms: 1_500,
    ...overrides,
  };
}
