/**
 * Since when ingest writes window digests: one item of the `leases` table, written once (the first
 * writer wins) before the first digest. Pages stored before then, by a version of Placid that
 * wrote none, have no digest, so a detection whose window reaches back before this time (plus the
 * clock skew reports may have, plus time for ingest Lambdas still running the old code to finish)
 * reads the pages instead (readFleet). Without it, the first window after an upgrade would look
 * empty: no data, hence no suffering VMs, and a suffering VM's hysteresis would be forgotten.
 */
import { MAX_CLOCK_SKEW_MS } from '../model/reportChecks.js';
import type { StoreContext } from './context.js';
import { readMarker, updateMarkerIf } from './markers.js';

export const WINDOW_DIGESTS_SINCE_NAME = '#window-digests-since';

/** Skew a report's samples may have, plus a rollout's old ingest code finishing its batches. */
export const DIGEST_COVERAGE_MARGIN_MS = MAX_CLOCK_SKEW_MS + 5 * 60_000;

/** Records now as the time digests start, unless an earlier time is recorded. */
export async function markDigestsWritten(ctx: StoreContext): Promise<void> {
  if (ctx.digestsMarked.has(ctx.tables.leases)) return;
  await updateMarkerIf(ctx, WINDOW_DIGESTS_SINCE_NAME, {
    UpdateExpression: 'SET #since = :since',
    ConditionExpression: 'attribute_not_exists(#since)',
    ExpressionAttributeNames: { '#since': 'since' },
    ExpressionAttributeValues: { ':since': new Date(ctx.clock.now()).toISOString() },
  });
  ctx.digestsMarked.add(ctx.tables.leases);
}

/** When digests started (ISO-8601), or null if none was ever written. */
export function digestsWrittenSince(ctx: StoreContext): Promise<string | null> {
  return readMarker(ctx, WINDOW_DIGESTS_SINCE_NAME, 'since');
}

/** Whether every sample of a window starting at `from` has a digest, given when digests started. */
export function digestsCover(since: string | null, from: Date): boolean {
  return since !== null && from.getTime() >= Date.parse(since) + DIGEST_COVERAGE_MARGIN_MS;
}
