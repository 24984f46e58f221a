/**
 * The ingest stage as a local pipeline stage: the real core (lib/ingest's ingestBatch) on the
 * local queues and store, keeping a running tally so callers can report what a run stored.
 */
import { type IngestBatchResult, ingestBatch, type ReportCounts } from '../ingest/ingestBatch.js';
import { KnownHosts } from '../ingest/knownHosts.js';
import { NotedWatermark } from '../ingest/notedWatermark.js';
import type { BatchLogger } from '../queue/processBatch.js';
import type { PipelineStage } from './pipelineStage.js';

export const INGEST_STAGE = 'ingest';

export interface IngestTally extends ReportCounts {
  /** The last error of each message that had to be retried, by message id. */
  lastErrors: Map<string, unknown>;
}

export interface IngestPipelineStage extends PipelineStage {
  /** What every batch handled so far added up to. */
  tally(): Readonly<IngestTally>;
}

export interface IngestPipelineStageOptions {
  /** Attempts before SQS moves a failing message to the dead-letter queue. Default 5. */
  maxReceiveCount?: number;
  batchSize?: number;
  /** Batches handled at once, as concurrent Lambda invocations would. Default 1. */
  maxConcurrency?: number;
  /** A queue may allow up to 1 MiB; the parser still rejects bodies over 256 KiB. */
  maxMessageBytes?: number;
  logger?: BatchLogger;
}

export function ingestPipelineStage(options: IngestPipelineStageOptions = {}): IngestPipelineStage {
  const tally: IngestTally = {
    stored: 0,
    unchanged: 0,
    stale: 0,
    rejected: 0,
    samples: 0,
    pages: 0,
    lastErrors: new Map(),
  };
  const add = (result: IngestBatchResult) => {
    tally.stored += result.reports.stored;
    tally.unchanged += result.reports.unchanged;
    tally.stale += result.reports.stale;
    tally.rejected += result.reports.rejected;
    tally.samples += result.reports.samples;
    tally.pages += result.reports.pages;
    for (const { messageId, error } of result.retried) tally.lastErrors.set(messageId, error);
  };
  return {
    name: INGEST_STAGE,
    batchSize: options.batchSize ?? 10,
    maxConcurrency: options.maxConcurrency,
    maxReceiveCount: options.maxReceiveCount ?? 5,
    maxMessageBytes: options.maxMessageBytes,
    create: ({ store, wallClock }, { deadLetter }) => {
      const knownHosts = KnownHosts.inStore(store);
      const watermark = new NotedWatermark();
      return async (event) => {
        const result = await ingestBatch(event, {
          store,
          deadLetter,
          clock: wallClock,
          knownHosts,
          watermark,
          logger: options.logger,
        });
        add(result);
        return result.response;
      };
    },
    tally: () => tally,
  };
}
