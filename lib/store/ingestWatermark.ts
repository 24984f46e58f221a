/**
 * The ingest watermark: the newest `reported_at` any ingest batch has stored, in one item of the
 * `leases` table. Host items cannot tell it any more (an unchanged host state is not rewritten, so
 * its `reported_at` lags), yet the detector needs it to skip a run when nothing new arrived.
 * Written once per ingest batch, never per message; it only moves forward.
 */
import { ValidationError } from '../model/errors.js';
import type { StoreContext } from './context.js';
import { readMarker, updateMarkerIf } from './markers.js';

/** The item's name; `#` keeps it apart from lease names, which are plain words. */
export const INGEST_WATERMARK_NAME = '#ingest-watermark';

/**
 * Raises the watermark to `newestReportAt` (canonical ISO-8601, as reports are stored) unless it
 * is already there or later. A failed condition means a newer batch got there first: success.
 */
export async function noteIngested(ctx: StoreContext, newestReportAt: string): Promise<void> {
  const ms = Date.parse(newestReportAt);
  if (!Number.isFinite(ms) || new Date(ms).toISOString() !== newestReportAt) {
    throw new ValidationError('ingest watermark', [
      {
        path: 'newestReportAt',
        message: `must be an ISO-8601 UTC time as toISOString() writes it, got "${newestReportAt}"`,
      },
    ]);
  }
  await updateMarkerIf(ctx, INGEST_WATERMARK_NAME, {
    UpdateExpression: 'SET #newest = :new, #updated_at = :now',
    ConditionExpression: 'attribute_not_exists(#newest) OR #newest < :new',
    ExpressionAttributeNames: { '#newest': 'newest_report_at', '#updated_at': 'updated_at' },
    ExpressionAttributeValues: { ':new': newestReportAt, ':now': ctx.clock.now() },
  });
}

/** The newest `reported_at` ingested so far, or null before the first batch. */
export function ingestWatermark(ctx: StoreContext): Promise<string | null> {
  return readMarker(ctx, INGEST_WATERMARK_NAME, 'newest_report_at');
}
