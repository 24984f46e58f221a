/**
 * The batch-wide writes of an ingest batch, after each message's state writes: the sample pages of
 * every message at once (25 per BatchWriteItem instead of one call per message) with one item of
 * sightings for the hosts whose unchanged state was not rewritten (hostSightings.ts) in the same
 * calls, then the ingest watermark, once. A message is done only when its pages and the watermark are written too; one
 * that is not is handed back to SQS (retryable), alone or with the others that share its failure.
 */
import type { ReportMessage } from '../model/reports.js';
import type { BatchLogger, BatchOutcome } from '../queue/processBatch.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { Sighting } from '../store/hostSightings.js';
import type { PageWrite } from '../store/samplePages.js';
import { pageKey, type SampleWriteStats } from '../store/sampleWrites.js';
import { NotedWatermark } from './notedWatermark.js';

/** A message whose states are stored; its pages and its part of the watermark are still to write. */
export interface AcceptedMessage {
  messageId: string;
  pages: PageWrite[];
  /** Its newest `reported_at` (hypervisors and instances). */
  newestReportAt: string;
  /** Its hosts whose unchanged state was not rewritten: their heartbeat is the batch's sighting item. */
  sighted?: Sighting[];
}

export interface BatchWritesResult {
  /** Pages and samples written. */
  samples: Pick<SampleWriteStats, 'written' | 'samples'>;
  /** Messages to hand back to SQS, by id, with the error that failed them. */
  failed: Map<string, unknown>;
}

/** The newest `reported_at` of a message's reports (a valid message carries at least one). */
export function newestReportAt(message: Pick<ReportMessage, 'hypervisors' | 'instances'>): string {
  let newest = '';
  for (const r of [...message.hypervisors, ...message.instances])
    if (r.reported_at > newest) newest = r.reported_at;
  return newest;
}

/**
 * Writes the pages of all `accepted` messages, then the watermark of those whose pages are all
 * written, unless `watermark` shows the store already holds it or a later one.
 */
export async function writeBatchWide(
  store: FleetStore,
  accepted: readonly AcceptedMessage[],
  watermark = new NotedWatermark(),
): Promise<BatchWritesResult> {
  const failed = new Map<string, unknown>();
  let samples = { written: 0, samples: 0 };
  if (accepted.length === 0) return { samples, failed };
  const sighting = accepted.filter((m) => (m.sighted?.length ?? 0) > 0);
  try {
    // The sightings ride in the pages' calls; unwritten, their hosts would read down until their heartbeat.
    const result = await store.putSamplePagesAndSightings(
      accepted.flatMap((m) => m.pages),
      sighting.flatMap((m) => m.sighted ?? []),
    );
    samples = { written: result.written, samples: result.samples };
    if (result.alongsideError !== undefined)
      for (const m of sighting) failed.set(m.messageId, result.alongsideError);
    // A page two messages share (a duplicate delivery) fails both.
    const errorOf = new Map<string, unknown>();
    for (const f of result.failures) for (const page of f.pages) errorOf.set(pageKey(page), f.error);
    for (const m of accepted) {
      const key = m.pages.map((p) => pageKey(p.item)).find((k) => errorOf.has(k));
      if (key !== undefined) failed.set(m.messageId, errorOf.get(key));
    }
  } catch (error) {
    for (const m of accepted) failed.set(m.messageId, error);
  }
  const done = accepted.filter((m) => !failed.has(m.messageId));
  if (done.length === 0) return { samples, failed };
  // ISO-8601 strings as reports store them: the greatest string is the newest time.
  const newest = done.map((m) => m.newestReportAt).sort()[done.length - 1];
  if (watermark.covers(newest)) return { samples, failed };
  try {
    await store.noteIngested(newest);
    watermark.noted(newest);
  } catch (error) {
    // Without the watermark the detector may not look at these reports: retry them (cheap: their
    // states are stale by now and their pages are rewritten in place).
    for (const m of done) failed.set(m.messageId, error);
  }
  return { samples, failed };
}

/** Turns messages the batch-wide writes failed from "stored" into "retry" in the batch outcome. */
export function failAfterwards(
  outcome: BatchOutcome,
  failed: ReadonlyMap<string, unknown>,
  logger?: BatchLogger,
): void {
  for (const [messageId, error] of failed) {
    outcome.response.batchItemFailures.push({ itemIdentifier: messageId });
    outcome.counts.stored--;
    outcome.counts.retried++;
    logger?.warn('record failed; SQS will redeliver it', { messageId, error });
  }
}
