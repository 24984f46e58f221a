/**
 * The contract between lib/infra and functions/: the environment variables the stack sets (named
 * by the functions' own env modules, so the two sides cannot drift) and the metrics the alarms and
 * dashboard read. Table names travel as `tableEnvVar(table)` (lib/store/tables.ts), e.g.
 * PLACID_TABLE_HOSTS.
 */
import { DETECT_ENV } from '../../functions/detect/env.js';
import { INGEST_ENV } from '../../functions/ingest/config.js';
import { SCHEDULE_ENV } from '../../functions/schedule/env.js';

export const RUNTIME_ENV = {
  /** A function's own dead-letter queue (ingest, schedule queue consumer): one name in every stage. */
  deadLetterQueueUrl: INGEST_ENV.deadLetterQueueUrl,
  /** functions/schedule/env.ts: where the queue consumer sends decisions. */
  scheduleReplyQueueUrl: SCHEDULE_ENV.replyQueueUrl,
  /** Inline scheduler configuration (`{"filter_scheduler": {...}}`), from the context setting. */
  schedulerConfig: SCHEDULE_ENV.schedulerConfigJson,
  /** functions/detect/env.ts: where the detector sends executable migrations. */
  planQueueUrl: DETECT_ENV.planQueueUrl,
  /** functions/detect/env.ts: the `[rebalance]` options as JSON, from the context setting. */
  rebalanceSettings: DETECT_ENV.rebalanceSettings,
} as const;

/** Custom metrics the alarms and dashboard read (published through functions/shared/powertools.ts). */
export const METRICS = {
  namespace: 'Placid',
  /** Powertools adds a `service` dimension equal to POWERTOOLS_SERVICE_NAME. */
  serviceDimension: 'service',
  /** Per batch, every stage (recordBatchCounts). */
  batch: ['MessagesStored', 'MessagesRejected', 'MessagesRetried'],
  /** Per ingest batch (functions/ingest/handler.ts). */
  ingest: ['ReportsStored', 'ReportsStale', 'ReportsRejected', 'SamplesWritten'],
  /** Reports that advanced the stored state: none for a while means the newest data is that old. */
  reportsStored: 'ReportsStored',
  /** Per decision (functions/schedule/metrics.ts). */
  schedule: ['DecisionsPlaced', 'DecisionsNoValidHost', 'ClaimConflicts'],
  /** Per advisory decision: the nova-scheduler plug-in's calls (functions/schedule/metrics.ts). */
  advisory: ['DecisionsAdvised', 'AdvisoryCandidates', 'AdvisoryUnknownHosts'],
  /** One per completed detector run (functions/detect/metrics.ts): none for minutes means the loop stopped. */
  detectorRuns: 'DetectorRuns',
  /** Per detector run: plans made, migrations sent to the plan queue, VMs found suffering, plans expired. */
  detector: ['PlansMade', 'MigrationsQueued', 'SufferingVms', 'PlansExpired'],
  /**
   * Counted by metric filters on the state machine's execution log (no `service` dimension):
   * executions that entered Rollback, and those that deferred before changing anything.
   */
  rolledBack: 'MigrationsRolledBack',
  deferred: 'MigrationsDeferred',
  /** Bytes a successful live migration moved, published by the workflow steps (service placid-workflow). */
  bytesMoved: 'BytesMoved',
} as const;

/** POWERTOOLS_SERVICE_NAME of each function, also the `service` dimension of its metrics. */
export const SERVICE_NAMES = {
  ingest: 'placid-ingest',
  scheduleQueue: 'placid-schedule-queue',
  scheduleHttp: 'placid-schedule-http',
  detect: 'placid-detect',
} as const;
