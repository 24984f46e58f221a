/**
 * Finding "our" live migration among a server's migrations. Nova creates the record after the
 * `os-migrateLive` call returns (and a timed-out call may still have started one), so the workflow
 * identifies it by what it asked for: this server, live, to this destination, created after the
 * execution started. That is what lets a retried step adopt a migration instead of starting another.
 */
import type { NovaMigrationRecord } from '../drivers/openstack/schemas.js';
import type { ComputeApi } from './ports.js';
import type { WorkflowState } from './state.js';
import { guarded } from './translate.js';

/** Nova's clock and ours may differ a little; a record this much "before" our start still counts. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const IN_PROGRESS = new Set(['queued', 'accepted', 'preparing', 'running', 'post-migrating']);
export const FAILED = new Set(['error', 'failed', 'cancelled', 'cancelling']);
/** Nova's statuses of a migration that ended well (`done` is the pre-2.23 spelling). */
export const FINISHED = new Set(['completed', 'done']);
/**
 * Statuses after which Nova does nothing more to the server. Not `cancelling`: an abort is
 * asynchronous, and the VM's host is known only once the compute host reports `cancelled`.
 */
export const SETTLED = new Set(['completed', 'done', 'error', 'failed', 'cancelled']);

/** Nova's timestamps carry no zone; they are UTC. */
export function novaTime(text: string | null): number {
  if (!text) return Number.NaN;
  return Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
}

/** The newest migration this execution started, if Nova has one. */
export async function findOurMigration(
  nova: ComputeApi,
  state: WorkflowState,
): Promise<NovaMigrationRecord | undefined> {
  const { migration } = state;
  const knownId = state.live?.nova_migration_id ?? null;
  const records = await guarded('list the server migrations', () =>
    nova.listMigrations({ instanceUuid: migration.instance_uuid }),
  );
  if (knownId !== null) return records.find((r) => r.id === knownId);
  const since = Date.parse(state.execution_started_at) - CLOCK_SKEW_MS;
  return records
    .filter(
      (r) =>
        r.destCompute === migration.dest_host &&
        (r.migrationType === null || r.migrationType === 'live-migration') &&
        !(novaTime(r.createdAt) < since),
    )
    .sort((a, b) => b.id - a.id)[0];
}
