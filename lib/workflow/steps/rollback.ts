/**
 * The failure path, also used to defer: abort our migration if Nova is still running it, always
 * undrain, give the leases back, and record the outcome with its cause. Each cleanup action runs
 * even when another failed; if any did, the record says which and CleanupIncompleteError makes the
 * state machine retry the whole (idempotent) rollback, unless one was refused for good (a 403):
 * then CleanupRefusedError, which nothing retries, ends it in CleanupFailed at once. Leases stay held until the node is back in
 * service, so nothing else starts on a VM in an unknown state.
 */
import {
  CleanupIncompleteError,
  CleanupRefusedError,
  MigrationSettlingError,
  WorkflowError,
} from '../errors.js';
import { FINISHED, findOurMigration, SETTLED } from '../novaMigration.js';
import { buildOutcome, causeText } from '../outcome.js';
import type { StepDeps } from '../ports.js';
import type { MigrationStatus, WorkflowState } from '../state.js';
import { guarded, translate } from '../translate.js';
import { abortMigration } from './deadline.js';
import { releaseLeases } from './releaseLeases.js';
import { endMaintenance, uncordonNode } from './undrain.js';

export interface RollbackResult {
  status: MigrationStatus;
  final_host: string | null;
  /** One line for the execution's failure cause (the Fail state's CausePath). */
  summary: string;
}

const problem = (what: string, error: unknown) =>
  `${what}: ${error instanceof Error ? error.message : String(error)}`;

export async function rollback(
  state: WorkflowState,
  deps: StepDeps,
  status: Exclude<MigrationStatus, 'succeeded'> = 'failed',
): Promise<RollbackResult> {
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
  // Keep the VM locked while its node may still be out of service; the retry releases.
  if (problems.length === 0) await attempt('release leases', () => releaseLeases(state, deps));

  // Before the drain the VM is where the re-check found it; without a re-check, unknown.
  const finalHost = attempted
    ? (where?.host ?? state.verify?.host ?? null)
    : state.recheck
      ? state.migration.source_host
      : null;
  // Verified on the destination, or Nova finished it despite the abort (refused in post-migrating):
  // the move happened, whatever failed around it.
  const landed = state.verify !== undefined || where?.landed === true;
  const recorded: MigrationStatus = landed ? 'succeeded' : status;
  const outcome = buildOutcome(state, deps.now(), {
    status: recorded,
    finalHost,
    novaMigrationId: where?.novaMigrationId,
    cleanupProblems: problems,
  });
  await guarded('record the migration', () => deps.records.record(outcome));
  if (landed) {
    const at = state.verify?.verified_at ?? deps.now().toISOString();
    await guarded('record the last-migrated time', () =>
      deps.records.markMigrated(state.migration.instance_uuid, at, finalHost ?? undefined),
    );
  }
  const refused = failures.some((f) => f instanceof WorkflowError && !f.retryable);
  if (problems.length > 0 && refused) {
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
  const failure = state.failure
    ? `${state.failure.Error}: ${causeText(state.failure)}`
    : 'no failure recorded';
  return {
    status: recorded,
    final_host: finalHost,
    summary: `${recorded}: ${failure}; VM on ${finalHost ?? 'an unknown host'}; node back in service, leases released`,
  };
}

/**
 * Aborts our migration if it is still running and waits for Nova to settle it: an abort is
 * asynchronous (`cancelling`), and one refused during `post-migrating` ends `completed`. Returns
 * where the VM is then, and whether it landed on the destination.
 */
async function stopMigration(
  state: WorkflowState,
  deps: StepDeps,
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
  const server = await guarded('read the server', () => nova.getServer(uuid));
  const landed =
    record !== undefined && FINISHED.has(record.status) && server.host === state.migration.dest_host;
  return { host: server.host, novaMigrationId: record?.id ?? null, landed };
}

/** The state with our migration's id pinned, so the re-read finds that very record. */
function liveWithId(state: WorkflowState, id: number): WorkflowState['live'] {
  return state.live ? { ...state.live, nova_migration_id: id } : undefined;
}
