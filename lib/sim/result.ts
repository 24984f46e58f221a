/**
 * What one simulation produces: the scenario it ran, the same scenario with and without Placid side
 * by side, and the data the terminal summary and the HTML report draw. Plain JSON (strings for
 * times), so `placid simulate --json` prints it as it is and the report embeds it.
 */

export interface SimulationResult {
  scenario: ScenarioSummary;
  /** The same fleet, load and seed: once with Placid acting, once left alone. */
  runs: { placid: RunMetrics; baseline: RunMetrics };
  heatmap: StealHeatmap;
  series: { placid: SeriesPoint[]; baseline: SeriesPoint[] };
  migrations: MigrationEvent[];
  decisions: DecisionLog;
  /** Wall-clock time of the whole simulation, both runs. */
  elapsed_ms: number;
}

export interface ScenarioSummary {
  name: string;
  seed: number;
  /** Simulated start and end (ISO-8601). */
  start: string;
  end: string;
  minutes: number;
  zones: string[];
  hosts: number;
  vms: number;
  /** IANA zone of the load curve and the blackout windows, e.g. Asia/Tokyo. */
  timezone: string;
  report_interval_minutes: number;
  steal_threshold_percent: number;
  mode: string;
  /** How the simulated world shared CPU shortfalls (contention.ts); the planner predicts `proportional`. */
  contention_model: string;
}

export interface RunMetrics {
  /** VM-minutes with steal above `steal_threshold_percent`. */
  vm_minutes_in_steal: number;
  /** VM-minutes that were suffering: steal and load5 per vCPU both above their thresholds. */
  suffering_vm_minutes: number;
  /** Over every VM-minute of the run. */
  p95_steal_percent: number;
  max_steal_percent: number;
  plans: number;
  migrations: { started: number; succeeded: number; failed: number; rolled_back: number };
  gb_moved: number;
  /** The most migration traffic in flight at one time, summed over migrations. */
  peak_bandwidth_mbps: number;
  /** Hard constraints broken during the run; must be empty. */
  violations: Violation[];
}

export type ViolationKind =
  | 'capacity'
  | 'availability_zone'
  | 'role_limit'
  | 'host_concurrency'
  | 'zone_concurrency'
  | 'total_concurrency'
  | 'bandwidth'
  | 'blackout'
  | 'cooldown';

export interface Violation {
  at: string;
  kind: ViolationKind;
  detail: string;
}

/** Mean VM steal per host per time bucket, for both runs (hosts in zone order, then name). */
export interface StealHeatmap {
  bucket_minutes: number;
  /** Start of each bucket (ISO-8601). */
  times: string[];
  hosts: Array<{ host: string; zone: string; placid: number[]; baseline: number[] }>;
}

/** One point per heat-map bucket. */
export interface SeriesPoint {
  at: string;
  p95_steal_percent: number;
  mean_steal_percent: number;
  suffering_vms: number;
  migrations_running: number;
  bandwidth_mbps: number;
}

export type MigrationStatus = 'running' | 'succeeded' | 'failed' | 'rolled_back';

export interface MigrationEvent {
  migration_id: string;
  plan_id: string;
  wave: number;
  instance_uuid: string;
  vm_name: string;
  role: string;
  zone: string;
  source_host: string;
  dest_host: string;
  started_at: string;
  /** Absent while running at the end of the simulation. */
  ended_at?: string;
  status: MigrationStatus;
  bytes: number;
  /** The planner's reason for the move. */
  reason: string;
  /** Why it failed or was rolled back. */
  error?: string;
}

/** Why every VM the detector considered moved or stayed. */
export interface DecisionLog {
  /** Counts by skip code (no_destination, cooldown, budget, blackout, …) and for `moved`. */
  counts: Array<{ decision: string; count: number }>;
  /** Each decision in time order; the HTML report lists them, the terminal shows the counts. */
  entries: DecisionEntry[];
}

export interface DecisionEntry {
  at: string;
  plan_id: string;
  instance_uuid: string;
  /** `moved` or the skip code. */
  decision: string;
  reason: string;
}
