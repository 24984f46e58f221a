/**
 * Writing sample pages (samplePages.ts) with BatchWriteItem: the pages of one message, or of a
 * whole ingest batch at once, 25 per call, each call also carrying the window digests made from
 * those pages (windowDigest.ts), so the detector can read every node's window in a few Queries.
 * A page whose digest is not written counts as not written: its message is retried.
 */
import type { HypervisorReport, InstanceReport } from '../model/reports.js';
import { type BatchWriteStats, batchPutSettled } from './batchWriter.js';
import type { StoreContext } from './context.js';
import { BatchWriteError } from './errors.js';
import { messagePages, type PageWrite, type SamplePage } from './samplePages.js';
import { TABLES } from './tables.js';
import { markDigestsWritten } from './windowCoverage.js';
import { digestWrites } from './windowDigest.js';

export interface SampleWriteStats extends BatchWriteStats {
  /** Sample pages written (digests not counted). */
  written: number;
  /** Samples carried by the pages written. */
  samples: number;
  /** Window digest items written with them. */
  digests: number;
}

/** Writes the samples of one message as pages, one or more per compute node. */
export async function putSamples(
  ctx: StoreContext,
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Promise<SampleWriteStats> {
  const { failures, ...stats } = await writePages(
    ctx,
    messagePages(hypervisors, instances, ctx.sampleRetentionSeconds),
  );
  if (failures.length === 0) return stats;
  const other = failures.find((f) => !(f.error instanceof BatchWriteError));
  throw other ? other.error : failures[0].error;
}

export interface PageWriteResult extends SampleWriteStats {
  /** Pages still unwritten after every retry (or whose digest is), and why; empty when all were written. */
  failures: { pages: SamplePage[]; error: unknown }[];
  /** Why an item of `alongside` stayed unwritten, if one did. */
  alongsideError?: unknown;
}

/** A page's key as one string: pages with equal keys hold the same samples. */
export const pageKey = (page: Pick<SamplePage, 'entity' | 'ts'>): string => `${page.entity}\n${page.ts}`;

/**
 * Writes pages of any number of messages together, with their digests (25 items per
 * BatchWriteItem), and `alongside`: other samples-table items that need no condition (the
 * batch's host sightings), which then cost no request of their own. Never throws for items it
 * could not write: it returns them, so the caller can retry only the messages they came from.
 */
export async function writePages(
  ctx: StoreContext,
  pages: readonly PageWrite[],
  alongside: readonly Record<string, unknown>[] = [],
): Promise<PageWriteResult> {
  if (pages.length + alongside.length === 0)
    return { written: 0, calls: 0, retries: 0, samples: 0, digests: 0, failures: [] };
  await markDigestsWritten(ctx);
  const unique = new Map(pages.map((p) => [pageKey(p.item), p]));
  const digests = digestWrites([...unique.values()]);
  const digestOf = new Map(digests.map((d) => [itemKey(d.item), d]));
  const { failures, ...stats } = await batchPutSettled(
    ctx.doc,
    TABLES.samples,
    ctx.tables.samples,
    [
      ...[...unique.values()].map((p) => p.item as unknown as Record<string, unknown>),
      ...digests.map((d) => d.item as unknown as Record<string, unknown>),
      ...alongside,
    ],
    { retry: ctx.retry, concurrency: ctx.concurrency },
  );
  // A digest left unwritten fails every page it carries: a retry of their messages rewrites both.
  const failed = new Map<string, { page: SamplePage; error: unknown }>();
  let digestsLost = 0;
  let alongsideError: unknown;
  const other = new Set(alongside.map(itemKey));
  for (const f of failures) {
    for (const item of f.items) {
      if (other.has(itemKey(item))) {
        alongsideError ??= f.error;
        continue;
      }
      const digest = digestOf.get(itemKey(item));
      if (!digest) {
        failed.set(pageKey(item as unknown as SamplePage), {
          page: item as unknown as SamplePage,
          error: f.error,
        });
        continue;
      }
      digestsLost++;
      for (const ref of digest.pages) {
        const page = unique.get(pageKey(ref));
        if (page && !failed.has(pageKey(ref))) failed.set(pageKey(ref), { page: page.item, error: f.error });
      }
    }
  }
  let samples = 0;
  for (const [key, p] of unique) if (!failed.has(key)) samples += p.samples;
  const byError = new Map<unknown, SamplePage[]>();
  for (const { page, error } of failed.values()) byError.set(error, [...(byError.get(error) ?? []), page]);
  return {
    calls: stats.calls,
    retries: stats.retries,
    written: unique.size - failed.size,
    digests: digests.length - digestsLost,
    samples,
    failures: [...byError].map(([error, list]) => ({ pages: list, error })),
    ...(alongsideError === undefined ? {} : { alongsideError }),
  };
}

const itemKey = (item: { entity?: unknown; ts?: unknown }): string =>
  `${String(item.entity)}\n${String(item.ts)}`;
