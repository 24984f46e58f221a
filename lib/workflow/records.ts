/**
 * The workflow's store adapters: the migration's record (the one item per migration described in
 * recordItem.ts: the detector's planned item, or a new one for an ad-hoc migration), the VM's
 * last-migrated time on its instance item, and "steal before" from its samples.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type StoreContext } from '../store/context.js';
import { WriteConflictError } from '../store/errors.js';
import type { FleetStore } from '../store/fleetStore.js';
import { allItems } from '../store/paginate.js';
import { isConditionFailed } from '../store/retry.js';
import type { MigrationInput } from './input.js';
import type { MigrationOutcome, MigrationRecorder, StealReader } from './ports.js';
import { type MigrationRecordItem, type MigrationRecordKey, recordKey, setExpression } from './recordItem.js';

export type { MigrationRecordItem } from './recordItem.js';

const DAY_SECONDS = 86_400;

/** Concurrent report writes can race the read-modify-write of an instance item; this many tries. */
const MARK_ATTEMPTS = 4;

export function storeRecorder(ctx: StoreContext, retentionDays: number): MigrationRecorder {
  return {
    record: (outcome) => putMigrationRecord(ctx, outcome, retentionDays),
    markMigrated: (uuid, at, host) => markMigrated(ctx, uuid, at, host),
    markRunning: (migration, startedAt) => markMigrationRunning(ctx, migration, startedAt, retentionDays),
  };
}

/**
 * Writes the outcome onto the migration's item (recordKey): the detector's planned item, or a new
 * one. Only this migration's own item may be changed, so a retried write overwrites itself.
 */
export async function putMigrationRecord(
  ctx: StoreContext,
  outcome: MigrationOutcome,
  retentionDays: number,
): Promise<void> {
  const { migration, started_at, ...rest } = outcome;
  const { instance_uuid: _uuid, ...fields } = migration;
  const values = {
    ...fields,
    ...rest,
    execution_started_at: started_at,
    expires_at: epochSeconds(Date.parse(outcome.finished_at)) + retentionDays * DAY_SECONDS,
  };
  await updateOwnItem(ctx, recordKey(migration, started_at), migration.migration_id, values);
}

/**
 * Moves the migration's item to `running` when its execution has taken its leases. A record that
 * already has an outcome is left as it is (a late retry of the first step changes nothing).
 */
export async function markMigrationRunning(
  ctx: StoreContext,
  migration: MigrationInput,
  executionStartedAt: string,
  retentionDays: number,
): Promise<void> {
  const { instance_uuid: _uuid, ...fields } = migration;
  const values = {
    ...fields,
    status: 'running',
    execution_started_at: executionStartedAt,
    expires_at: epochSeconds(ctx.clock().getTime()) + retentionDays * DAY_SECONDS,
  };
  await updateOwnItem(ctx, recordKey(migration, executionStartedAt), migration.migration_id, values, {
    onlyWhileUnfinished: true,
  });
}

async function updateOwnItem(
  ctx: StoreContext,
  key: MigrationRecordKey,
  migrationId: string,
  values: Record<string, unknown>,
  options: { onlyWhileUnfinished?: boolean } = {},
): Promise<void> {
  const update = setExpression(values);
  const unfinished = options.onlyWhileUnfinished ? ' AND #status IN (:planned, :queued, :running)' : '';
  try {
    await ctx.doc.send(
      new UpdateCommand({
        TableName: ctx.tables.migrations,
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
      }),
    );
  } catch (error) {
    if (!(options.onlyWhileUnfinished && isConditionFailed(error))) throw error;
  }
}

/**
 * The instance's migration records, oldest first (expired ones left out); with `since`, only those
 * keyed at or after it (a record is keyed by its plan's creation or its execution start, so every
 * migration that finished after `since` is included).
 */
export async function migrationRecords(
  ctx: StoreContext,
  instanceUuid: string,
  since?: Date,
): Promise<MigrationRecordItem[]> {
  const items = await allItems<MigrationRecordItem>((startKey) =>
    ctx.doc.send(
      new QueryCommand({
        TableName: ctx.tables.migrations,
        KeyConditionExpression: since ? '#uuid = :uuid AND #started >= :since' : '#uuid = :uuid',
        FilterExpression: '#expires_at > :now',
        ExpressionAttributeNames: {
          '#uuid': 'instance_uuid',
          '#expires_at': 'expires_at',
          ...(since ? { '#started': 'started_at' } : {}),
        },
        ExpressionAttributeValues: {
          ':uuid': instanceUuid,
          ':now': epochSeconds(ctx.clock().getTime()),
          ...(since ? { ':since': since.toISOString() } : {}),
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    ),
  );
  return items;
}

/**
 * Sets `last_migrated_at` inside the stored report (what the planner's cooldown reads) and as a
 * top-level attribute; with `host`, also moves the VM there, so the fleet view, the planner and a
 * repeated `placid migrate` see where it is now rather than where the last report put it (the next
 * report, newer, replaces all of it). Conditional on the report being unchanged since it was read;
 * an instance with no stored report is left alone (its migration record still counts for the cooldown).
 */
export async function markMigrated(
  ctx: StoreContext,
  instanceUuid: string,
  at: string,
  host?: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ctx.doc.send(
      new GetCommand({ TableName: ctx.tables.instances, Key: { uuid: instanceUuid }, ConsistentRead: true }),
    );
    if (!Item) return;
    const state = JSON.parse(String(Item.state)) as {
      last_migrated_at?: string | null;
      host?: string;
      nodename?: string;
    };
    if (state.last_migrated_at && Date.parse(state.last_migrated_at) >= Date.parse(at)) return;
    // Nova names a libvirt compute node after its host; the destination's node is not known here.
    const placed = host === undefined ? {} : { host, nodename: host };
    const attributes = host === undefined ? '' : ', #host = :host, #nodename = :host';
    try {
      await ctx.doc.send(
        new UpdateCommand({
          TableName: ctx.tables.instances,
          Key: { uuid: instanceUuid },
          UpdateExpression: `SET #state = :state, #last = :at${attributes}`,
          ConditionExpression: '#reported_at = :reported_at',
          ExpressionAttributeNames: {
            '#state': 'state',
            '#last': 'last_migrated_at',
            '#reported_at': 'reported_at',
            ...(host === undefined ? {} : { '#host': 'host', '#nodename': 'nodename' }),
          },
          ExpressionAttributeValues: {
            ':state': JSON.stringify({ ...state, ...placed, last_migrated_at: at }),
            ':at': at,
            ':reported_at': Item.reported_at,
            ...(host === undefined ? {} : { ':host': host }),
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

/**
 * Mean steal of the VM's samples in the window, from the fleet store. A VM's samples live on the
 * pages of the node it was reported on, so the reader needs that node: `host` names it (the source
 * for steal before a move, the destination for steal after); without it, the node of the VM's
 * stored report. A VM unknown to the store and given no host has no samples (null).
 */
export function storeStealReader(
  store: Pick<FleetStore, 'samplesFor' | 'getInstance'>,
): StealReader & ((instanceUuid: string, from: Date, to: Date, host?: string) => Promise<number | null>) {
  return async (instanceUuid: string, from: Date, to: Date, host?: string) => {
    const stored = (await store.getInstance(instanceUuid)) as { host: string; nodename: string } | undefined;
    // Nodes are named after their host unless the report says otherwise (Nova's libvirt default).
    const nodename = stored && (host === undefined || stored.host === host) ? stored.nodename : host;
    const onHost = host ?? stored?.host;
    if (onHost === undefined || nodename === undefined) return null;
    const entity = { kind: 'instance' as const, uuid: instanceUuid, host: onHost, nodename };
    const samples = await store.samplesFor(entity, from, to);
    const values = samples
      .map((s) => (s as { steal_percent?: unknown }).steal_percent)
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) return null;
    return Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * 100) / 100;
  };
}
