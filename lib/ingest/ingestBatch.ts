/**
 * The ingest stage's core: one SQS batch of report messages into the fleet store. The Lambda
 * (functions/ingest/handler.ts) and the local pipeline (lib/local/pipeline.ts) call this same
 * function; everything it touches comes in through `deps`.
 */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../model/clock.js';
import { ValidationError } from '../model/errors.js';
import { isPermanentFailure } from '../model/failure.js';
import { parseReportMessage, type ReportMessage } from '../model/reports.js';
import type { MessageQueue } from '../queue/port.js';
import { type BatchLogger, type BatchOutcome, processSqsBatch } from '../queue/processBatch.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { Sighting } from '../store/hostSightings.js';
import { type AcceptedMessage, failAfterwards, newestReportAt, writeBatchWide } from './batchWrites.js';
import { KnownHosts, unknownHostIssues } from './knownHosts.js';
import type { NotedWatermark } from './notedWatermark.js';
import { reportsInBody } from './reportCount.js';

export interface IngestDeps {
  store: FleetStore;
  /** Where malformed messages go, with the reason attached. */
  deadLetter: MessageQueue;
  /** The receiver's clock: timestamps too far ahead of it are rejected as clock skew. */
  clock: Pick<Clock, 'now'>;
  logger?: BatchLogger;
  /** Shared across invocations by a long-lived caller (a warm Lambda); a fresh cache per batch otherwise. */
  knownHosts?: KnownHosts;
  /**
   * The watermark this container has seen stored, shared across invocations like `knownHosts`:
   * a batch with nothing newer then skips a write its condition would refuse.
   */
  watermark?: NotedWatermark;
}

/** Report counts of one batch. Hypervisor and instance reports both count as reports. */
export interface ReportCounts {
  /** Reports that replaced (or created) a stored state. */
  stored: number;
  /**
   * Newer reports of a state written less than a heartbeat ago: not written again (a host's only
   * when that write left no pending claim).
   */
  unchanged: number;
  /** Reports no newer than the stored state: duplicates, out-of-order, or written by an earlier attempt. */
  stale: number;
  /** Reports in dead-lettered messages (a message whose reports cannot be read counts as one). */
  rejected: number;
  /** Samples written (idempotent rewrites of a redelivery included). */
  samples: number;
  /** Sample pages (items) those samples were written in: one per compute node and message, or more. */
  pages: number;
}

/** A record left for SQS to redeliver, with the error that failed it. */
export interface RetriedRecord {
  messageId: string;
  error: unknown;
}

export interface IngestBatchResult extends BatchOutcome {
  reports: ReportCounts;
  retried: RetriedRecord[];
}

/**
 * Parses, checks and stores each message of `event`. A malformed message (not JSON, wrong schema,
 * out-of-range value, unknown schema_version, clock skew, an instance on an unknown node) goes to
 * the dead-letter queue with its reason and is never retried; any other failure (throttling, a
 * conflict, the network) is listed in `response.batchItemFailures`, so only that record comes back.
 * Storing is idempotent, so a redelivered message changes nothing.
 *
 * States are written message by message; the batch's host sightings (one item), the sample pages
 * of every stored message (BatchWriteItem, 25 a call) and the ingest watermark then go out once
 * (batchWrites.ts). A message counts as done only when all of these are written.
 *
 * @example
 * const { response } = await ingestBatch(event, { store, deadLetter, clock: systemClock });
 */
export async function ingestBatch(event: SQSEvent, deps: IngestDeps): Promise<IngestBatchResult> {
  const known = deps.knownHosts ?? KnownHosts.inStore(deps.store);
  const reports: ReportCounts = { stored: 0, unchanged: 0, stale: 0, rejected: 0, samples: 0, pages: 0 };
  const retried: RetriedRecord[] = [];
  const accepted: AcceptedMessage[] = [];
  // Remembers why a record will be retried (the batch helper only counts it).
  const tracked = async <T>(record: SQSRecord, step: () => T | Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      if (!isPermanentFailure(error)) retried.push({ messageId: record.messageId, error });
      throw error;
    }
  };

  const outcome = await processSqsBatch<ReportMessage>(event, {
    parse: (body, record) =>
      parseReportMessage(body, new Date(deps.clock.now()), `message ${record.messageId}`),
    handle: (message, record) =>
      tracked(record, async () => {
        const issues = await unknownHostIssues(message, known);
        if (issues.length > 0) throw new ValidationError(`message ${record.messageId}`, issues);
        const sighted: Sighting[] = [];
        const stored = await deps.store.putStates(message, sighted);
        known.remember(message.hypervisors);
        reports.stored += stored.hosts.stored + stored.instances.stored;
        reports.unchanged += stored.hosts.unchanged + stored.instances.unchanged;
        reports.stale += stored.hosts.stale + stored.instances.stale;
        accepted.push({
          messageId: record.messageId,
          pages: deps.store.samplePages(message),
          newestReportAt: newestReportAt(message),
          sighted,
        });
      }),
    deadLetter: deps.deadLetter,
    logger: deps.logger,
  });

  const wide = await writeBatchWide(deps.store, accepted, deps.watermark);
  reports.samples += wide.samples.samples;
  reports.pages += wide.samples.written;
  failAfterwards(outcome, wide.failed, deps.logger);
  for (const [messageId, error] of wide.failed) retried.push({ messageId, error });

  const bodies = new Map(event.Records.map((r) => [r.messageId, r.body]));
  for (const rejection of outcome.rejections) {
    reports.rejected += Math.max(1, reportsInBody(bodies.get(rejection.messageId) ?? ''));
  }
  return { ...outcome, reports, retried };
}
