/**
 * The failure path's on-premises half (on an agent), also used to defer: abort our migration if
 * Nova is still running it, and always undrain. Each cleanup action runs even when another failed;
 * if any did, CleanupIncompleteError makes the state machine retry the whole (idempotent) cleanup,
 * on whichever agent polls next. The AWS half (recordRollback.ts) then gives the leases back and
 * records the outcome; it keeps the leases when this half gave up, so nothing else starts on a VM
 * in an unknown state.
 */
import { CleanupIncompleteError } from '../errors.js';
import { FAILED, FINISHED, findOurMigration } from '../novaMigration.js';
import type { AgentStepDeps } from '../ports.js';
import type { CleanupResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';
import { abortMigration } from './deadline.js';
import { endMaintenance, uncordonNode } from './undrain.js';

const problem = (what: string, error: unknown) =>
  `${what}: ${error instanceof Error ? error.message : String(error)}`;

export async function rollback(state: WorkflowState, deps: AgentStepDeps): Promise<CleanupResult> {
  const problems: string[] = [];
  const attempt = async <T>(what: string, action: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await action();
    } catch (error) {
      problems.push(problem(what, error));
      return undefined;
    }
  };
  // Once drained, LiveMigrate may have run, even if it failed before reporting (a lost answer).
  const attempted = state.drain !== undefined;
  const where = attempted ? await attempt('stop the migration', () => stopMigration(state, deps)) : undefined;
  await attempt('uncordon', () => uncordonNode(state, deps));
  await attempt('end maintenance', () => endMaintenance(state, deps));
  if (problems.length > 0) {
    throw new CleanupIncompleteError(
      `cleanup of migration ${state.migration.migration_id}: ${problems.join('; ')}`,
    );
  }
  // Before the drain the VM is where the re-check found it; without a re-check, unknown.
  const finalHost = attempted
    ? (where?.host ?? state.verify?.host ?? null)
    : state.recheck
      ? state.migration.source_host
      : null;
  return { final_host: finalHost, nova_migration_id: where?.novaMigrationId ?? null };
}

/** Aborts our migration if it is still running; returns where the VM is now. */
async function stopMigration(
  state: WorkflowState,
  deps: AgentStepDeps,
): Promise<{ host: string | null; novaMigrationId: number | null }> {
  const nova = await deps.nova();
  const uuid = state.migration.instance_uuid;
  const record = await findOurMigration(nova, state);
  const ended = record && (FINISHED.has(record.status) || FAILED.has(record.status));
  if (record && !ended) await abortMigration(nova, uuid, record.id);
  const server = await guarded('read the server', () => nova.getServer(uuid));
  return { host: server.host, novaMigrationId: record?.id ?? null };
}
