/**
 * The failure path's on-premises half (on an agent), also used to defer: abort our migration if
 * Nova is still running it, and always undrain. Each cleanup action runs even when another failed;
 * if any did, CleanupIncompleteError makes the state machine retry the whole (idempotent) cleanup,
 * on whichever agent polls next. The AWS half (recordRollback.ts) then gives the leases back and
 * records the outcome; it keeps the leases when this half gave up, so nothing else starts on a VM
 * in an unknown state.
 */
import { OpenStackNotFoundError } from '../../drivers/openstack/errors.js';
import {
  CleanupIncompleteError,
  CleanupRefusedError,
  MigrationSettlingError,
  WorkflowError,
} from '../errors.js';
import { FINISHED, findOurMigration, SETTLED } from '../novaMigration.js';
import type { AgentStepDeps } from '../ports.js';
import type { CleanupResult, WorkflowState } from '../state.js';
import { guarded, translate } from '../translate.js';
import { abortMigration } from './deadline.js';
import { endMaintenance, uncordonNode } from './undrain.js';

const problem = (what: string, error: unknown) =>
  `${what}: ${error instanceof Error ? error.message : String(error)}`;

export async function rollback(state: WorkflowState, deps: AgentStepDeps): Promise<CleanupResult> {
  const problems: string[] = [];
  const failures: unknown[] = [];
  const attempt = async <T>(what: string, action: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await action();
    } catch (error) {
      problems.push(problem(what, error));
      failures.push(translate(what, error));
      return undefined;
    }
  };
  // Once drained, LiveMigrate may have run, even if it failed before reporting (a lost answer).
  const attempted = state.drain !== undefined;
  const where = attempted ? await attempt('stop the migration', () => stopMigration(state, deps)) : undefined;
  // Not back in service while the VM may still be moving: the retry undrains once Nova settled.
  const settling = failures.some((f) => f instanceof MigrationSettlingError);
  if (!settling) {
    await attempt('uncordon', () => uncordonNode(state, deps));
    await attempt('end maintenance', () => endMaintenance(state, deps));
  }
  if (failures.some((f) => f instanceof WorkflowError && !f.retryable)) {
    // A 403 or a missing node stays so on every retry: hand it to an operator now, not in an hour.
    throw new CleanupRefusedError(
      `cleanup of migration ${state.migration.migration_id} refused for good: ${problems.join('; ')}`,
    );
  }
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
  return {
    final_host: finalHost,
    nova_migration_id: where?.novaMigrationId ?? null,
    ...(where?.landed ? { landed: true } : {}),
  };
}

/**
 * Aborts our migration if it is still running and waits for Nova to settle it: an abort is
 * asynchronous (`cancelling`), and one refused during `post-migrating` ends `completed`. Returns
 * where the VM is then, and whether it landed on the destination.
 */
async function stopMigration(
  state: WorkflowState,
  deps: AgentStepDeps,
): Promise<{ host: string | null; novaMigrationId: number | null; landed: boolean }> {
  const nova = await deps.nova();
  const uuid = state.migration.instance_uuid;
  let record = await findOurMigration(nova, state);
  if (record && !SETTLED.has(record.status) && record.status !== 'cancelling') {
    await abortMigration(nova, uuid, record.id);
    record = await findOurMigration(nova, { ...state, live: liveWithId(state, record.id) });
  }
  if (record && !SETTLED.has(record.status)) {
    throw new MigrationSettlingError(
      `Nova migration ${record.id} of ${uuid} is ${record.status} after the abort; waiting for it to end`,
    );
  }
  const server = await guarded('read the server', () => nova.getServer(uuid).catch(unlessGone));
  // Deleted meanwhile (a 404): nothing is left to stop or to place.
  if (server === undefined) return { host: null, novaMigrationId: record?.id ?? null, landed: false };
  // os-migrateLive only marks the server `migrating`: the conductor creates the migration record
  // later (seconds later on a busy cloud). Until then nothing can be aborted and the VM may move.
  if (!record && server.taskState === 'migrating') {
    throw new MigrationSettlingError(
      `Nova accepted the live migration of ${uuid} but shows no migration record yet; waiting for it`,
    );
  }
  const landed =
    record !== undefined && FINISHED.has(record.status) && server.host === state.migration.dest_host;
  return { host: server.host, novaMigrationId: record?.id ?? null, landed };
}

/** undefined for Nova's 404 (the server is gone); any other error is thrown on. */
function unlessGone(error: unknown): undefined {
  if (error instanceof OpenStackNotFoundError) return undefined;
  throw error;
}

/** The state with our migration's id pinned, so the re-read finds that very record. */
function liveWithId(state: WorkflowState, id: number): WorkflowState['live'] {
  return state.live ? { ...state.live, nova_migration_id: id } : undefined;
}
