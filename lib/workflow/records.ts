/**
 * The workflow's store adapters: the migration's record (the one item per migration described in
 * lib/model/migration.ts: the detector's planned item, or a new one for an ad-hoc migration), the
 * VM's last-migrated time on its instance item, and "steal before" from its samples.
 */
import type { MigrationInput } from '../model/migration.js';
import { recordKey } from '../model/migration.js';
import { epochSeconds } from '../store/context.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { MigrationOutcome, MigrationRecorder, StealReader } from './ports.js';

const DAY_SECONDS = 86_400;

/** What the recorder needs of the store. */
export type RecordStore = Pick<FleetStore, 'migrations' | 'markMigrated' | 'now'>;

export function storeRecorder(store: RecordStore, retentionDays: number): MigrationRecorder {
  return {
    record: (outcome) => putMigrationRecord(store, outcome, retentionDays),
    markMigrated: (uuid, at, host) => store.markMigrated(uuid, at, host),
    markRunning: (migration, startedAt) => markMigrationRunning(store, migration, startedAt, retentionDays),
  };
}

/**
 * Writes the outcome onto the migration's item (recordKey): the detector's planned item, or a new
 * one. Only this migration's own item may be changed, so a retried write overwrites itself.
 */
export async function putMigrationRecord(
  store: Pick<RecordStore, 'migrations'>,
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
  await store.migrations.writeOwn(recordKey(migration, started_at), migration.migration_id, values);
}

/**
 * Moves the migration's item to `running` when its execution has taken its leases. A record that
 * already has an outcome is left as it is (a late retry of the first step changes nothing).
 */
export async function markMigrationRunning(
  store: Pick<RecordStore, 'migrations' | 'now'>,
  migration: MigrationInput,
  executionStartedAt: string,
  retentionDays: number,
): Promise<void> {
  const { instance_uuid: _uuid, ...fields } = migration;
  const values = {
    ...fields,
    status: 'running',
    execution_started_at: executionStartedAt,
    expires_at: epochSeconds(store.now().getTime()) + retentionDays * DAY_SECONDS,
  };
  await store.migrations.writeOwn(recordKey(migration, executionStartedAt), migration.migration_id, values, {
    onlyWhileUnfinished: true,
  });
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
