/**
 * Writing host reports. A report replaces the stored state only when it is newer (a condition on
 * `reported_at`), so redelivered and out-of-order messages change nothing. Claims made by
 * schedulers survive a report unless the report already lists their instance (or they expired):
 * otherwise a report taken before a claim would silently hand the claimed room out again.
 *
 * A report whose state equals the one this process last wrote, less than a heartbeat ago, is not
 * written at all (writeMemo.ts), but only when that write left no claim on the item: while claims
 * are pending, every report is written, since it may retire or expire them.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HypervisorReport } from '../model/reports.js';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';
import { WriteConflictError } from './errors.js';
import { addUsage, type Claim, nodeKey, reportAttributes, reportedUsage } from './hostItems.js';
import { type StateWriteMemo, stateFingerprint } from './writeMemo.js';

export type WriteOutcome = 'stored' | 'stale';

/** 'unchanged': the same state was written recently and left no claim, so only `reported_at` would move. */
export type HostWriteOutcome = WriteOutcome | 'unchanged';

/** Attempts of the read-merge-write path before giving up with a retryable WriteConflictError. */
const MERGE_ATTEMPTS = 5;

/**
 * Stores one hypervisor report: 'stale' when the stored report is as new or newer, 'unchanged'
 * when `memo` shows this process wrote the same state, leaving no claim, less than a heartbeat ago.
 */
export async function putHostReport(
  ctx: StoreContext,
  report: HypervisorReport,
  memo?: StateWriteMemo,
): Promise<HostWriteOutcome> {
  const now = ctx.clock.now();
  const key = nodeKey(report.host, report.nodename);
  // What the item stores of a report: its state and zone (gaps and samples are not host state).
  const fingerprint = memo
    ? stateFingerprint({ availability_zone: report.availability_zone, state: report.state })
    : '';
  const verdict = memo?.verdict(key, fingerprint, report.reported_at, now) ?? 'write';
  if (verdict === 'unchanged') memo?.skipped(key, report.reported_at);
  if (verdict !== 'write') return verdict;
  let written: Written;
  try {
    written = await writeReport(ctx, report, now);
  } catch (error) {
    memo?.forget(key);
    throw error;
  }
  if (written.outcome === 'stored' && written.claimsLeft === 0)
    memo?.wrote(key, fingerprint, report.reported_at, now);
  else memo?.forget(key);
  return written.outcome;
}

interface Written {
  outcome: WriteOutcome;
  /** Claims the item holds after this write (0 when nothing was written). */
  claimsLeft: number;
}

async function writeReport(ctx: StoreContext, report: HypervisorReport, now: number): Promise<Written> {
  // Fast path: no pending claims, so the report's usage is the whole truth.
  const fresh = await conditionalWrite(
    ctx,
    report,
    { ...reportAttributes(report, reportedUsage(report.state), now), claims: {} },
    'attribute_not_exists(#host) OR (#reported_at < :reported_at AND size(#claims) = :zero)',
    { ':zero': 0 },
  );
  if (fresh) return { outcome: 'stored', claimsLeft: 0 };
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
    const { Item } = await ctx.doc.send(
      new GetCommand({
        TableName: ctx.tables.hosts,
        Key: { host: report.host, nodename: report.nodename },
        ConsistentRead: true,
      }),
    );
    if (Item && (Item.reported_at as string) >= report.reported_at)
      return { outcome: 'stale', claimsLeft: 0 };
    const claims = Item ? keptClaims(Item.claims as Record<string, Claim>, report, now - ctx.claimTtlMs) : {};
    const usage = addUsage(reportedUsage(report.state), Object.values(claims));
    const condition = Item ? '#version = :version' : 'attribute_not_exists(#host)';
    const written = await conditionalWrite(
      ctx,
      report,
      { ...reportAttributes(report, usage, now), claims },
      condition,
      Item ? { ':version': Item.version } : {},
    );
    if (written) return { outcome: 'stored', claimsLeft: Object.keys(claims).length };
  }
  throw new WriteConflictError(
    `host ${report.host}/${report.nodename}: report ${report.reported_at} lost ${MERGE_ATTEMPTS} times to concurrent writers`,
  );
}

/** Claims the report does not cover yet: their instance is not listed and they have not expired. */
function keptClaims(
  claims: Record<string, Claim>,
  report: HypervisorReport,
  oldest: number,
): Record<string, Claim> {
  return Object.fromEntries(
    Object.entries(claims ?? {}).filter(
      ([id, c]) => !(id in report.state.instances) && c.claimed_at >= oldest,
    ),
  );
}

async function conditionalWrite(
  ctx: StoreContext,
  report: HypervisorReport,
  attributes: Record<string, unknown>,
  condition: string,
  conditionValues: Record<string, unknown>,
): Promise<boolean> {
  // DynamoDB rejects unused names, and only some conditions mention the key.
  const names: Record<string, string> = { '#version': 'version' };
  if (condition.includes('#host')) names['#host'] = 'host';
  const values: Record<string, unknown> = { ':one': 1, ...conditionValues };
  const sets: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  return sendIfCondition(
    ctx,
    new UpdateCommand({
      TableName: ctx.tables.hosts,
      Key: { host: report.host, nodename: report.nodename },
      UpdateExpression: `SET ${sets.join(', ')} ADD #version :one`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}
