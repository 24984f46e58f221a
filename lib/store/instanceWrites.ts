/**
 * Writing instance reports. A report replaces the stored state only when it is newer, and is not
 * written at all when it changes nothing but `reported_at` and its heartbeat is not due
 * (writeMemo.ts). A later `last_migrated_at` set by the migration workflow (markMigrated) is
 * never replaced by an agent's older or null one.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { InstanceReport } from '../model/reports.js';
import { sendIfCondition } from './conditionalWrite.js';
import { epochSeconds, type StoreContext } from './context.js';
import { WriteConflictError } from './errors.js';
import type { WriteOutcome } from './hostWrites.js';
import { type StateWriteMemo, stateFingerprint } from './writeMemo.js';

/** 'unchanged': the same state was written recently, so only `reported_at` would have moved. */
export type InstanceWriteOutcome = WriteOutcome | 'unchanged';

/** Read-merge-write attempts against concurrent writers before a retryable WriteConflictError. */
const MERGE_ATTEMPTS = 4;

/**
 * Stores one instance report: 'stale' when the stored report is as new or newer, 'unchanged' when
 * `memo` shows the same state was written less than a heartbeat ago.
 */
export async function putInstanceReport(
  ctx: StoreContext,
  report: InstanceReport,
  memo?: StateWriteMemo,
): Promise<InstanceWriteOutcome> {
  const { samples: _samples, ...state } = report;
  const now = ctx.clock.now();
  const fingerprint = memo ? stateFingerprint(state) : '';
  const verdict = memo?.verdict(report.uuid, fingerprint, report.reported_at, now) ?? 'write';
  if (verdict === 'unchanged') memo?.skipped(report.uuid, report.reported_at);
  if (verdict !== 'write') return verdict;
  let outcome: WriteOutcome;
  try {
    outcome = await writeState(ctx, report, now);
  } catch (error) {
    memo?.forget(report.uuid); // what is stored now is unknown
    throw error;
  }
  if (outcome === 'stored') memo?.wrote(report.uuid, fingerprint, report.reported_at, now);
  else memo?.forget(report.uuid);
  return outcome;
}

/**
 * Fast path: one PutItem, if the report is newer and the stored `last_migrated_at` is not later.
 * Otherwise read the item and, unless the report is stale, write it with the later
 * `last_migrated_at`, conditional on the item being exactly as read.
 */
async function writeState(ctx: StoreContext, report: InstanceReport, now: number): Promise<WriteOutcome> {
  const last = report.last_migrated_at ?? null;
  // `NOT a > b` also holds when `a` is missing. (A nested `attribute_not_exists(…) OR …` would say
  // the same, but dynalite, the local stand-in, takes about 2 ms longer per write to parse it.)
  const fast = 'attribute_not_exists(#uuid) OR (#reported_at < :reported_at AND NOT #last > :last)';
  // '' sorts before every timestamp: a report without one never replaces a stored one here.
  if (
    await putState(ctx, report, last, now, fast, { ':reported_at': report.reported_at, ':last': last ?? '' })
  ) {
    return 'stored';
  }
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
    const { Item } = await ctx.doc.send(
      new GetCommand({ TableName: ctx.tables.instances, Key: { uuid: report.uuid }, ConsistentRead: true }),
    );
    if (Item && String(Item.reported_at) >= report.reported_at) return 'stale';
    const seenLast = (Item?.last_migrated_at as string | undefined) ?? null;
    const merged = later(last, seenLast);
    const written = Item
      ? await putState(
          ctx,
          report,
          merged,
          now,
          `#reported_at = :seen AND ${seenLast ? '#last = :last' : 'attribute_not_exists(#last)'}`,
          { ':seen': Item.reported_at, ...(seenLast ? { ':last': seenLast } : {}) },
        )
      : await putState(ctx, report, merged, now, 'attribute_not_exists(#uuid)', {});
    if (written) return 'stored';
  }
  throw new WriteConflictError(
    `instance ${report.uuid}: report ${report.reported_at} lost ${MERGE_ATTEMPTS} times to concurrent writers`,
  );
}

/** A conditional PutItem of the report's state item with `last`; false when the condition failed. */
async function putState(
  ctx: StoreContext,
  report: InstanceReport,
  last: string | null,
  now: number,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  // DynamoDB rejects names the expression does not use.
  const names: Record<string, string> = {};
  for (const [ref, name] of [
    ['#uuid', 'uuid'],
    ['#reported_at', 'reported_at'],
    ['#last', 'last_migrated_at'],
  ]) {
    if (condition.includes(ref)) names[ref] = name;
  }
  return sendIfCondition(
    ctx,
    new PutCommand({
      TableName: ctx.tables.instances,
      Item: instanceStateItem(ctx, report, last, now),
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

/** The state item of an instance report with `last` as its last migration, written at `now`. */
export function instanceStateItem(
  ctx: Pick<StoreContext, 'instanceRetentionSeconds'>,
  report: InstanceReport,
  last: string | null,
  now: number,
): Record<string, unknown> {
  const { samples: _samples, ...state } = report;
  return {
    uuid: report.uuid,
    host: report.host,
    nodename: report.nodename,
    availability_zone: report.availability_zone,
    reported_at: report.reported_at,
    // At the top level too, where conditions can compare it (markMigrated sets it there).
    ...(last ? { last_migrated_at: last } : {}),
    updated_at: now,
    // Vanished instances (deleted, or moved out of the reporting scope) age out.
    expires_at: epochSeconds(Date.parse(report.reported_at)) + ctx.instanceRetentionSeconds,
    state: JSON.stringify({ ...state, last_migrated_at: last }),
  };
}

/** The later of two timestamps; on a tie the second (the stored spelling, which conditions compare). */
function later(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(a) > Date.parse(b) ? a : b;
}
