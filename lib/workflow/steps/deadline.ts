/**
 * The migration ran past Placid's deadline. Configured `force-complete`: ask Nova to pause the
 * guest and finish, and give it `force_complete_grace_seconds` more (once). Configured `abort`, or
 * still running after the grace: abort it (the VM stays on the source) and fail, so the rollback
 * path undrains and records why.
 */
import {
  NovaConflictError,
  OpenStackBadRequestError,
  OpenStackNotFoundError,
} from '../../drivers/openstack/errors.js';
import { MigrationDeadlineError } from '../errors.js';
import { FAILED, FINISHED, findOurMigration } from '../novaMigration.js';
import type { AgentStepDeps, ComputeApi } from '../ports.js';
import type { LiveMigration, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';
import { requireLive } from './pollMigration.js';

export async function onDeadline(state: WorkflowState, deps: AgentStepDeps): Promise<LiveMigration> {
  const live = requireLive(state);
  const nova = await deps.nova();
  const now = new Date(deps.clock.now());
  const record = await findOurMigration(nova, state);
  const uuid = state.migration.instance_uuid;
  if (!record) {
    throw new MigrationDeadlineError(
      `Nova shows no migration of ${uuid} to ${state.migration.dest_host} by Placid's deadline ${live.deadline_at}`,
    );
  }
  // It finished (or failed) since the last poll: let the next poll say which.
  if (FINISHED.has(record.status) || FAILED.has(record.status)) return live;
  const id = record.id;
  if (
    deps.settings.on_deadline === 'force-complete' &&
    live.forced_at === null &&
    record.status === 'running'
  ) {
    await guarded(`force-complete migration ${id}`, () =>
      tolerateFinished(() => nova.forceCompleteMigration(uuid, id)),
    );
    const grace = deps.settings.force_complete_grace_seconds * 1000;
    return {
      ...live,
      nova_migration_id: id,
      forced_at: now.toISOString(),
      deadline_at: new Date(now.getTime() + grace).toISOString(),
    };
  }
  await abortMigration(nova, uuid, id);
  const forced = live.forced_at ? ` (force-completed at ${live.forced_at}, still running)` : '';
  throw new MigrationDeadlineError(
    `migration ${id} of ${uuid} passed Placid's deadline ${live.deadline_at}${forced}; aborted, the VM stays on ${state.migration.source_host}`,
  );
}

/** Aborts a migration; one that has already finished is not an error here. */
export async function abortMigration(nova: ComputeApi, uuid: string, id: number): Promise<void> {
  await guarded(`abort migration ${id}`, () => tolerateFinished(() => nova.abortMigration(uuid, id)));
}

/**
 * Nova answers 400 (migration no longer in an abortable state), 409 (the server is no longer
 * migrating) or 404 when the migration ended meanwhile: nothing left to act on.
 */
async function tolerateFinished(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const finished =
      error instanceof OpenStackBadRequestError ||
      error instanceof NovaConflictError ||
      error instanceof OpenStackNotFoundError;
    if (!finished) throw error;
  }
}
