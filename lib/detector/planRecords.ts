/**
 * The detector's side of the migration records (lib/workflow/recordItem.ts): one `planned` item
 * per planned migration, then `queued` by a conditional update just before its message is sent,
 * or `skipped` when the plan expires first.
 */
import { createHash } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Plan, PlannedMigration } from '../rebalance/planTypes.js';
import { mapLimit } from '../store/concurrency.js';
import { epochSeconds, type StoreContext } from '../store/context.js';
import type { StoredInstance } from '../store/instances.js';
import { allItems } from '../store/paginate.js';
import { isConditionFailed } from '../store/retry.js';
import { MIGRATIONS_BY_PLAN } from '../store/tables.js';
import type { MigrationInput } from '../workflow/input.js';
import type { MigrationRecordItem, MigrationRecordKey } from '../workflow/recordItem.js';
import { PLAN_RETENTION_DAYS } from './planItems.js';

const MIGRATION_ID_MAX = 128;

/**
 * The migration's id: the same for the same plan and VM, so a re-sent message starts no second
 * execution (the plan starter names executions after it). Readable when the uuid allows it.
 */
export function migrationIdFor(planId: string, instanceUuid: string): string {
  const id = `${planId}-${instanceUuid}`;
  if (id.length <= MIGRATION_ID_MAX && /^[A-Za-z0-9._:-]+$/.test(id)) return id;
  return `${planId}-${createHash('sha256').update(instanceUuid).digest('hex').slice(0, 32)}`;
}

/** The planned item of one migration; Kubernetes node and Consul agent come from the VM's report. */
export function plannedRecord(
  plan: Plan,
  m: PlannedMigration,
  instance: StoredInstance | undefined,
): MigrationRecordItem {
  const vm = instance as
    | {
        kubernetes_node?: string | null;
        kubernetes_cluster?: string | null;
        consul?: MigrationInput['consul'];
      }
    | undefined;
  return {
    instance_uuid: m.instance_uuid,
    started_at: plan.created_at,
    planned_at: plan.created_at,
    migration_id: migrationIdFor(plan.plan_id, m.instance_uuid),
    plan_id: plan.plan_id,
    plan_expires_at: plan.expires_at,
    source_host: m.source_host,
    dest_host: m.dest_host,
    estimated_bytes: m.estimated_bytes,
    // The workflow requires a positive duration; a zero-byte estimate still takes a moment.
    estimated_seconds: Math.max(1, m.estimated_seconds),
    kubernetes_node: vm?.kubernetes_node ?? null,
    kubernetes_cluster: vm?.kubernetes_cluster ?? null,
    consul: vm?.consul ?? null,
    correlation_id: plan.plan_id,
    status: 'planned',
    expires_at: epochSeconds(Date.parse(plan.expires_at)) + PLAN_RETENTION_DAYS * 86_400,
    wave: m.wave,
    starts_at: m.starts_at,
    reason: m.reason,
    needs_approval: m.needs_approval,
  };
}

/** The plan-queue message of a record. */
export function messageOf(r: MigrationRecordItem): MigrationInput {
  return {
    migration_id: r.migration_id,
    plan_id: r.plan_id,
    plan_expires_at: r.plan_expires_at,
    instance_uuid: r.instance_uuid,
    source_host: r.source_host,
    dest_host: r.dest_host,
    estimated_bytes: r.estimated_bytes,
    estimated_seconds: r.estimated_seconds,
    kubernetes_node: r.kubernetes_node ?? null,
    kubernetes_cluster: r.kubernetes_cluster ?? null,
    consul: r.consul ?? null,
    correlation_id: r.correlation_id,
    planned_at: r.planned_at ?? r.started_at,
  };
}

/** Writes the planned items; an item already there (a repeated run) is left as it is. */
export async function putPlannedRecords(
  ctx: StoreContext,
  records: readonly MigrationRecordItem[],
): Promise<void> {
  await mapLimit(records, ctx.concurrency, async (item) => {
    try {
      await ctx.doc.send(
        new PutCommand({
          TableName: ctx.tables.migrations,
          Item: item,
          ConditionExpression: 'attribute_not_exists(#uuid)',
          ExpressionAttributeNames: { '#uuid': 'instance_uuid' },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  });
}

/** Every record of a plan (the byPlan index: eventually consistent, so a status may lag a little). */
export async function recordsOfPlan(ctx: StoreContext, planId: string): Promise<MigrationRecordItem[]> {
  const items = await allItems<MigrationRecordItem>((startKey) =>
    ctx.doc.send(
      new QueryCommand({
        TableName: ctx.tables.migrations,
        IndexName: MIGRATIONS_BY_PLAN,
        KeyConditionExpression: '#plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan_id' },
        ExpressionAttributeValues: { ':plan': planId },
        ExclusiveStartKey: startKey,
      }),
    ),
  );
  return items;
}

/**
 * planned → `to` with one conditional write on the item itself (strongly consistent, unlike the
 * index read before it): true for exactly one caller, however many runs try at once.
 */
export async function leavePlanned(
  ctx: StoreContext,
  key: MigrationRecordKey,
  to: 'queued' | 'skipped',
  at: Date,
  reason?: string,
): Promise<boolean> {
  const stamp = to === 'queued' ? 'queued_at' : 'skipped_at';
  try {
    await ctx.doc.send(
      new UpdateCommand({
        TableName: ctx.tables.migrations,
        Key: { instance_uuid: key.instance_uuid, started_at: key.started_at },
        UpdateExpression: `SET #status = :to, #stamp = :at${reason ? ', #reason = :reason' : ''}`,
        ConditionExpression: '#status = :planned',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#stamp': stamp,
          ...(reason ? { '#reason': 'skip_reason' } : {}),
        },
        ExpressionAttributeValues: {
          ':to': to,
          ':at': at.toISOString(),
          ':planned': 'planned',
          ...(reason ? { ':reason': reason } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

/** Undoes `leavePlanned(…, 'queued', at)` when the message could not be sent. */
export async function returnToPlanned(ctx: StoreContext, key: MigrationRecordKey, at: Date): Promise<void> {
  try {
    await ctx.doc.send(
      new UpdateCommand({
        TableName: ctx.tables.migrations,
        Key: { instance_uuid: key.instance_uuid, started_at: key.started_at },
        UpdateExpression: 'SET #status = :planned REMOVE #stamp',
        ConditionExpression: '#status = :queued AND #stamp = :at',
        ExpressionAttributeNames: { '#status': 'status', '#stamp': 'queued_at' },
        ExpressionAttributeValues: { ':planned': 'planned', ':queued': 'queued', ':at': at.toISOString() },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
