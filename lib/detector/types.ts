/** The detector's ports, its result, and a plan as stored. */
import type { SchedulerConfig } from '../config/options.js';
import type { Plugins } from '../engine/registry.js';
import type { Clock } from '../model/clock.js';
import type { MessageQueue } from '../queue/port.js';
import type { Plan, PlanSummary, PlanWave } from '../rebalance/planTypes.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { MigrationInput } from '../workflow/input.js';

export interface DetectorLogger {
  info(msg: string, attrs?: Record<string, unknown>): void;
  warn(msg: string, attrs?: Record<string, unknown>): void;
}

export interface DetectorDeps {
  store: FleetStore;
  planQueue: MessageQueue;
  settings: RebalanceSettings;
  config: SchedulerConfig;
  plugins?: Plugins;
  clock: Pick<Clock, 'now'>;
  logger?: DetectorLogger;
  /** Node windows read at once (default 16). */
  readConcurrency?: number;
  /** Names this run in the lease and logs (default: random). */
  runId?: string;
}

export interface ReconcileResult {
  /** The plan this run made, if any. */
  plan: Plan | null;
  /** Plan-queue messages sent by this run. */
  sent: MigrationInput[];
  /** Plan ids this run marked expired. */
  expired: string[];
  /** Why no new plan was made, e.g. 'plan p-… in progress', 'nothing suffering'. */
  idle?: string;
  /** Plan ids this run found finished (every migration ended) and marked completed. */
  completed?: string[];
  /** Suffering VMs this run's detection found (undefined when it did not detect). */
  suffering?: number;
  /** The plan computed when nothing moved (not stored): its skipped VMs say why. */
  considered?: Plan;
}

/**
 * A plan's life in the plans table: `recommended` (a dry run, never sent), `pending_approval`
 * (waits for `placid approve`), `approved` (its migrations are being sent wave by wave),
 * `completed` (every migration ended) or `expired` (its time ran out first).
 */
export type StoredPlanStatus = Plan['status'] | 'completed' | 'expired';

/** What the plans table holds for a plan: the plan itself plus its lifecycle. */
export interface StoredPlan {
  plan_id: string;
  status: StoredPlanStatus;
  mode: Plan['mode'];
  created_at: string;
  /** When the plan stops being executable (ISO-8601); `expires_at` on the item is the TTL. */
  plan_expires_at: string;
  approved_at?: string;
  completed_at?: string;
  expired_at?: string;
  summary: PlanSummary;
  waves: PlanWave[];
  /** The whole plan as the planner returned it (skipped VMs may be cut to fit an item). */
  plan: Plan;
}
