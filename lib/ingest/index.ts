/** The ingest stage's public API. */

export { type AcceptedMessage, newestReportAt } from './batchWrites.js';
export {
  type IngestBatchResult,
  type IngestDeps,
  ingestBatch,
  type ReportCounts,
  type RetriedRecord,
} from './ingestBatch.js';
export { KnownHosts, type NodeKey, type NodeLookup, unknownHostIssues } from './knownHosts.js';
export { NotedWatermark } from './notedWatermark.js';
export { reportsInBody } from './reportCount.js';
