/**
 * Step 4: ask Nova to live-migrate the VM to the destination (`os-migrateLive`, host given, so Nova's
 * scheduler still checks it; `block_migration: "auto"`). A POST is never blindly repeated: if an
 * earlier attempt (a timeout, a lost answer) already started our migration, it is adopted. Sets
 * Placid's own deadline from the cost model's estimate.
 */
import { ServerBusyError, VmMovedError } from '../errors.js';
import { FAILED, findOurMigration } from '../novaMigration.js';
import type { AgentStepDeps } from '../ports.js';
import { deadlineSeconds } from '../settings.js';
import type { LiveMigration, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function liveMigrate(state: WorkflowState, deps: AgentStepDeps): Promise<LiveMigration> {
  const { migration } = state;
  const nova = await deps.nova();
  const now = new Date(deps.clock.now());
  const live = (novaMigrationId: number | null, adopted: boolean): LiveMigration => ({
    nova_migration_id: novaMigrationId,
    requested_at: now.toISOString(),
    adopted,
    deadline_at: new Date(
      now.getTime() + deadlineSeconds(migration.estimated_seconds, deps.settings) * 1000,
    ).toISOString(),
    poll_interval_seconds: deps.settings.poll_interval_seconds,
    forced_at: null,
  });

  const earlier = await findOurMigration(nova, state);
  // A failed earlier attempt is not adopted: the poll would report it, but the server may be idle again.
  if (earlier && !FAILED.has(earlier.status)) return live(earlier.id, true);

  const server = await guarded('read the server', () => nova.getServer(migration.instance_uuid));
  if (server.host !== migration.source_host) {
    throw new VmMovedError(
      `VM ${migration.instance_uuid} is on ${server.host ?? 'an unknown host'}, not on ${migration.source_host}; not migrating it`,
    );
  }
  if (server.taskState !== null) {
    throw new ServerBusyError(`VM ${migration.instance_uuid} is busy (task ${server.taskState})`);
  }
  await guarded(`os-migrateLive ${migration.instance_uuid} to ${migration.dest_host}`, () =>
    nova.liveMigrate(migration.instance_uuid, { host: migration.dest_host, blockMigration: 'auto' }),
  );
  const started = await findOurMigration(nova, state);
  return live(started?.id ?? null, false);
}
