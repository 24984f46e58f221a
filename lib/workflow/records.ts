/**
 * The workflow's store adapters: migration records (one item per execution in the `migrations`
 * table, keyed by instance and execution start, so a retried write overwrites its own item), the
 * VM's last-migrated time on its instance item, and "steal before" from its samples.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type StoreContext } from '../store/context.js';
import { WriteConflictError } from '../store/errors.js';
import type { FleetStore } from '../store/fleetStore.js';
import { isConditionFailed } from '../store/retry.js';
import type { MigrationOutcome, MigrationRecorder, StealReader } from './ports.js';

const DAY_SECONDS = 86_400;
/** Concurrent report writes can race the read-modify-write of an instance item; this many tries. */
const MARK_ATTEMPTS = 4;

export function storeRecorder(ctx: StoreContext, retentionDays: number): MigrationRecorder {
  return {
    record: (outcome) => putMigrationRecord(ctx, outcome, retentionDays),
    markMigrated: (uuid, at) => markMigrated(ctx, uuid, at),
  };
}

export type MigrationRecordItem = Omit<MigrationOutcome, 'migration'> &
  MigrationOutcome['migration'] & { expires_at: number };

export async function putMigrationRecord(
  ctx: StoreContext,
  outcome: MigrationOutcome,
  retentionDays: number,
): Promise<void> {
  const { migration, ...rest } = outcome;
  const item: MigrationRecordItem = {
    ...migration,
    ...rest,
    expires_at: epochSeconds(Date.parse(outcome.finished_at)) + retentionDays * DAY_SECONDS,
  };
  await ctx.doc.send(
    new PutCommand({
      TableName: ctx.tables.migrations,
      Item: item,
      // The key is (instance, execution start): only this migration's own item may be replaced.
      ConditionExpression: 'attribute_not_exists(#uuid) OR #id = :id',
      ExpressionAttributeNames: { '#uuid': 'instance_uuid', '#id': 'migration_id' },
      ExpressionAttributeValues: { ':id': migration.migration_id },
    }),
  );
}

/** The instance's migration records, oldest first (expired ones left out). */
export async function migrationRecords(
  ctx: StoreContext,
  instanceUuid: string,
): Promise<MigrationRecordItem[]> {
  const { Items } = await ctx.doc.send(
    new QueryCommand({
      TableName: ctx.tables.migrations,
      KeyConditionExpression: '#uuid = :uuid',
      FilterExpression: '#expires_at > :now',
      ExpressionAttributeNames: { '#uuid': 'instance_uuid', '#expires_at': 'expires_at' },
      ExpressionAttributeValues: { ':uuid': instanceUuid, ':now': epochSeconds(ctx.clock().getTime()) },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []) as MigrationRecordItem[];
}

/**
 * Sets `last_migrated_at` inside the stored report (what the planner's cooldown reads) and as a
 * top-level attribute. Conditional on the report being unchanged since it was read; an instance
 * with no stored report is left alone (its migration record still counts for the cooldown).
 */
export async function markMigrated(ctx: StoreContext, instanceUuid: string, at: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ctx.doc.send(
      new GetCommand({ TableName: ctx.tables.instances, Key: { uuid: instanceUuid }, ConsistentRead: true }),
    );
    if (!Item) return;
    const state = JSON.parse(String(Item.state)) as { last_migrated_at?: string | null };
    if (state.last_migrated_at && Date.parse(state.last_migrated_at) >= Date.parse(at)) return;
    try {
      await ctx.doc.send(
        new UpdateCommand({
          TableName: ctx.tables.instances,
          Key: { uuid: instanceUuid },
          UpdateExpression: 'SET #state = :state, #last = :at',
          ConditionExpression: '#reported_at = :reported_at',
          ExpressionAttributeNames: {
            '#state': 'state',
            '#last': 'last_migrated_at',
            '#reported_at': 'reported_at',
          },
          ExpressionAttributeValues: {
            ':state': JSON.stringify({ ...state, last_migrated_at: at }),
            ':at': at,
            ':reported_at': Item.reported_at,
          },
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= MARK_ATTEMPTS) {
        throw new WriteConflictError(
          `instance ${instanceUuid}: its report kept changing while last_migrated_at was set`,
        );
      }
    }
  }
}

/** Mean steal of the VM's samples in the window, from the fleet store. */
export function storeStealReader(store: Pick<FleetStore, 'samplesFor'>): StealReader {
  return async (instanceUuid, from, to) => {
    const samples = await store.samplesFor({ kind: 'instance', uuid: instanceUuid }, from, to);
    const values = samples
      .map((s) => (s as { steal_percent?: unknown }).steal_percent)
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) return null;
    return Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 100) / 100;
  };
}
