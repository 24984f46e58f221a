/** The fleet store's public API. */
export { BATCH_WRITE_LIMIT, type BatchWriteStats, batchPut } from './batchWriter.js';
export { type ClaimLimits, type ClaimRequest, claimLimits } from './claims.js';
export { type ClientOptions, createDocumentClient, createDynamoClient } from './client.js';
export type { StoreContext, StoreOptions } from './context.js';
export { createTableInput, createTables } from './createTables.js';
export type { DecisionRecord } from './decisions.js';
export { BatchWriteError, StoreError, WriteConflictError } from './errors.js';
export { FleetStore, type IngestOutcome, type StateCounts } from './fleetStore.js';
export type { Claim, StoredHost } from './hostItems.js';
export type { HostChanges } from './hostReads.js';
export type { WriteOutcome } from './hostWrites.js';
export type { StoredInstance } from './instances.js';
export type { Lease } from './leases.js';
export { DEFAULT_RETRY, type RetryPolicy, type Sleep } from './retry.js';
export { entityKey, type SampleEntity, type StoredSample } from './samples.js';
export * from './tables.js';
