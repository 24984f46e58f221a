/** The fleet store's public API. */

export type { Sleep } from '../model/clock.js';
export {
  BATCH_WRITE_LIMIT,
  type BatchWriteFailure,
  type BatchWriteStats,
  batchPut,
  batchPutSettled,
  type SettledBatchWrite,
} from './batchWriter.js';
export { type ClaimLimits, type ClaimRequest, claimLimits } from './claims.js';
export { type ClientOptions, createDocumentClient, createDynamoClient } from './client.js';
export type { StoreContext, StoreOptions } from './context.js';
export { createTableInput, createTables } from './createTables.js';
export type { DecisionRecord } from './decisions.js';
export { BatchWriteError, StoreError, WriteConflictError } from './errors.js';
export { FleetStore, type IngestOutcome, type StateCounts } from './fleetStore.js';
export type { Claim, StoredHost } from './hostItems.js';
export type { HostChanges } from './hostReads.js';
export type { HostWriteOutcome, WriteOutcome } from './hostWrites.js';
export { INGEST_WATERMARK_NAME } from './ingestWatermark.js';
export type { StoredInstance } from './instances.js';
export type { InstanceWriteOutcome } from './instanceWrites.js';
export type { Lease } from './leases.js';
export { MigrationRecordRepository } from './migrationRecords.js';
export { PLAN_RETENTION_DAYS, type PlanHeader, PlanRepository } from './plans.js';
export { putIfAbsent } from './putIfAbsent.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { type NodeRef, nodeEntityKey, type PageWrite, type SamplePage } from './samplePages.js';
export type { NodeWindow, SampleEntity, StoredSample } from './samples.js';
export { type PageWriteResult, pageKey, type SampleWriteStats } from './sampleWrites.js';
export * from './tables.js';
