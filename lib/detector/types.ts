/** The detector's ports and its result. */
import type { SchedulerConfig } from '../config/options.js';
import type { Plugins } from '../engine/registry.js';
import type { Clock } from '../model/clock.js';
import type { MigrationInput } from '../model/migration.js';
import type { Plan } from '../model/plan.js';
import type { MessageQueue } from '../queue/port.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { FleetStore } from '../store/fleetStore.js';

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
  /**
   * Read every node's sample window (one Query per node) instead of the window digests: the
   * reference the digests are checked against (`placid detect --full`).
   */
  fullRead?: boolean;
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
