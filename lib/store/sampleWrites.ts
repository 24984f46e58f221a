/**
 * Writing sample pages (samplePages.ts) with BatchWriteItem: the pages of one message, or of a
 * whole ingest batch at once, 25 per call.
 */
import type { HypervisorReport, InstanceReport } from '../model/reports.js';
import { type BatchWriteStats, batchPut, batchPutSettled } from './batchWriter.js';
import type { StoreContext } from './context.js';
import { messagePages, type PageWrite, type SamplePage } from './samplePages.js';
import { TABLES } from './tables.js';

export interface SampleWriteStats extends BatchWriteStats {
  /** Samples carried by the pages written (`written` counts the pages). */
  samples: number;
}

/** Writes the samples of one message as pages, one or more per compute node. */
export async function putSamples(
  ctx: StoreContext,
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Promise<SampleWriteStats> {
  const pages = messagePages(hypervisors, instances, ctx.sampleRetentionSeconds);
  const stats = await batchPut(
    ctx.doc,
    TABLES.samples,
    ctx.tables.samples,
    pages.map((p) => p.item as unknown as Record<string, unknown>),
    { retry: ctx.retry, concurrency: ctx.concurrency },
  );
  return { ...stats, samples: pages.reduce((n, p) => n + p.samples, 0) };
}

export interface PageWriteResult extends SampleWriteStats {
  /** Pages still unwritten after every retry, and why; empty when every page was written. */
  failures: { pages: SamplePage[]; error: unknown }[];
}

/** A page's key as one string: pages with equal keys hold the same samples. */
export const pageKey = (page: Pick<SamplePage, 'entity' | 'ts'>): string => `${page.entity}\n${page.ts}`;

/**
 * Writes pages of any number of messages together (25 per BatchWriteItem). Never throws for pages
 * it could not write: it returns them, so the caller can retry only the messages they came from.
 */
export async function writePages(ctx: StoreContext, pages: readonly PageWrite[]): Promise<PageWriteResult> {
  const { failures, ...stats } = await batchPutSettled(
    ctx.doc,
    TABLES.samples,
    ctx.tables.samples,
    pages.map((p) => p.item as unknown as Record<string, unknown>),
    { retry: ctx.retry, concurrency: ctx.concurrency },
  );
  const failed = new Set(failures.flatMap((f) => f.items.map((i) => pageKey(i as unknown as SamplePage))));
  // A page repeated by two messages (a duplicate delivery in one batch) was written once.
  const carried = new Map(pages.map((p) => [pageKey(p.item), p.samples]));
  let samples = 0;
  for (const [key, n] of carried) if (!failed.has(key)) samples += n;
  return {
    ...stats,
    samples,
    failures: failures.map((f) => ({ pages: f.items as unknown as SamplePage[], error: f.error })),
  };
}
