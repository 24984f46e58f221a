/**
 * Migration records in the `migrations` table: one item per migration (lib/model/migration.ts),
 * created `planned` by the detector, moved to `queued` before its message is sent (or `skipped`
 * when its plan expires first), and updated to its outcome by the workflow. Every transition is a
 * conditional write, so overlapping runs and retried steps cannot undo each other.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MigrationRecordItem, MigrationRecordKey } from '../model/migration.js';
import { mapLimit } from './concurrency.js';
import { sendIfCondition } from './conditionalWrite.js';
import { epochSeconds, type StoreContext } from './context.js';
import { queryAll } from './paginate.js';
import { putIfAbsent } from './putIfAbsent.js';
import { MIGRATIONS_BY_PLAN } from './tables.js';
import { setExpression } from './updateExpression.js';

export class MigrationRecordRepository {
  constructor(private readonly ctx: StoreContext) {}

  /** Writes the planned items; an item already there (a repeated run) is left as it is. */
  async putPlanned(records: readonly MigrationRecordItem[]): Promise<void> {
    await mapLimit(records, this.ctx.concurrency, (item) =>
      putIfAbsent(this.ctx, this.ctx.tables.migrations, item, 'instance_uuid'),
    );
  }

  /** Every record of a plan (the byPlan index: eventually consistent, so a status may lag a little). */
  ofPlan(planId: string): Promise<MigrationRecordItem[]> {
    return queryAll<MigrationRecordItem>(this.ctx, {
      TableName: this.ctx.tables.migrations,
      IndexName: MIGRATIONS_BY_PLAN,
      KeyConditionExpression: '#plan = :plan',
      ExpressionAttributeNames: { '#plan': 'plan_id' },
      ExpressionAttributeValues: { ':plan': planId },
    });
  }

  /**
   * The instance's records, oldest first (expired ones left out); with `since`, only those keyed at
   * or after it (a record is keyed by its plan's creation or its execution start, so every
   * migration that finished after `since` is included).
   */
  forInstance(instanceUuid: string, since?: Date): Promise<MigrationRecordItem[]> {
    return queryAll<MigrationRecordItem>(this.ctx, {
      TableName: this.ctx.tables.migrations,
      KeyConditionExpression: since ? '#uuid = :uuid AND #started >= :since' : '#uuid = :uuid',
      FilterExpression: '#expires_at > :now',
      ExpressionAttributeNames: {
        '#uuid': 'instance_uuid',
        '#expires_at': 'expires_at',
        ...(since ? { '#started': 'started_at' } : {}),
      },
      ExpressionAttributeValues: {
        ':uuid': instanceUuid,
        ':now': epochSeconds(this.ctx.clock.now()),
        ...(since ? { ':since': since.toISOString() } : {}),
      },
      ConsistentRead: true,
    });
  }

  /**
   * planned → `to` with one conditional write on the item itself (strongly consistent, unlike the
   * index read before it): true for exactly one caller, however many runs try at once.
   */
  async leavePlanned(
    key: MigrationRecordKey,
    to: 'queued' | 'skipped',
    at: Date,
    reason?: string,
  ): Promise<boolean> {
    const stamp = to === 'queued' ? 'queued_at' : 'skipped_at';
    const update = setExpression({ status: to, [stamp]: at.toISOString(), skip_reason: reason || undefined });
    return sendIfCondition(
      this.ctx,
      new UpdateCommand({
        TableName: this.ctx.tables.migrations,
        Key: { instance_uuid: key.instance_uuid, started_at: key.started_at },
        ...update,
        ConditionExpression: '#status = :planned',
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':planned': 'planned' },
      }),
    );
  }

  /** Undoes `leavePlanned(…, 'queued', at)` when the message could not be sent. */
  async returnToPlanned(key: MigrationRecordKey, at: Date): Promise<void> {
    // A condition that no longer holds means the record moved on: nothing to undo.
    await sendIfCondition(
      this.ctx,
      new UpdateCommand({
        TableName: this.ctx.tables.migrations,
        Key: { instance_uuid: key.instance_uuid, started_at: key.started_at },
        UpdateExpression: 'SET #status = :planned REMOVE #stamp',
        ConditionExpression: '#status = :queued AND #stamp = :at',
        ExpressionAttributeNames: { '#status': 'status', '#stamp': 'queued_at' },
        ExpressionAttributeValues: { ':planned': 'planned', ':queued': 'queued', ':at': at.toISOString() },
      }),
    );
  }

  /**
   * Sets `values` on the migration's own item at `key`: creates it, or updates it when it belongs
   * to `migrationId` (so a retried write overwrites itself, never another migration's record).
   * `onlyWhileUnfinished`: leave a record that already has an outcome as it is (returns false).
   */
  async writeOwn(
    key: MigrationRecordKey,
    migrationId: string,
    values: Record<string, unknown>,
    options: { onlyWhileUnfinished?: boolean } = {},
  ): Promise<boolean> {
    const update = setExpression(values);
    const unfinished = options.onlyWhileUnfinished ? ' AND #status IN (:planned, :queued, :running)' : '';
    const command = new UpdateCommand({
      TableName: this.ctx.tables.migrations,
      Key: key,
      ...update,
      ConditionExpression: `attribute_not_exists(#uuid) OR (#id = :id${unfinished})`,
      ExpressionAttributeNames: {
        ...update.ExpressionAttributeNames,
        '#uuid': 'instance_uuid',
        '#id': 'migration_id',
        ...(unfinished ? { '#status': 'status' } : {}),
      },
      ExpressionAttributeValues: {
        ...update.ExpressionAttributeValues,
        ':id': migrationId,
        ...(unfinished ? { ':planned': 'planned', ':queued': 'queued', ':running': 'running' } : {}),
      },
    });
    // Without `onlyWhileUnfinished` the condition only guards against another migration's record:
    // failing it is an error, not an outcome.
    if (options.onlyWhileUnfinished) return sendIfCondition(this.ctx, command);
    await this.ctx.doc.send(command);
    return true;
  }
}
