/**
 * The contract between lib/infra and functions/: the environment variables the stack sets and the
 * metrics the alarms read. Plain constants, so tests can check both sides against them. Table names
 * travel as `tableEnvVar(table)` (lib/store/tables.ts), e.g. PLACID_TABLE_HOSTS.
 */
export const RUNTIME_ENV = {
  /** functions/ingest/config.ts: where malformed reports go, with the reason attached. */
  ingestDeadLetterQueueUrl: 'PLACID_INGEST_DLQ_URL',
  /** functions/schedule/env.ts (SCHEDULE_ENV): the queue consumer's dead-letter and reply queues. */
  scheduleDeadLetterQueueUrl: 'PLACID_DEAD_LETTER_QUEUE_URL',
  scheduleReplyQueueUrl: 'PLACID_REPLY_QUEUE_URL',
  /** Inline scheduler configuration (`{"filter_scheduler": {...}}`), from the context setting. */
  schedulerConfig: 'PLACID_SCHEDULER_CONFIG',
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
} as const;

/** POWERTOOLS_SERVICE_NAME of each function, also the `service` dimension of its metrics. */
export const SERVICE_NAMES = {
  ingest: 'placid-ingest',
  scheduleQueue: 'placid-schedule-queue',
  scheduleHttp: 'placid-schedule-http',
} as const;
