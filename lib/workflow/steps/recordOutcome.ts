/**
 * Step 8: record the successful migration (duration, bytes, steal before) and the VM's
 * last-migrated time, which starts its cooldown.
 */
import { buildOutcome } from '../outcome.js';
import type { CloudStepDeps, MigrationOutcome } from '../ports.js';
import type { WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function recordOutcome(state: WorkflowState, deps: CloudStepDeps): Promise<MigrationOutcome> {
  const now = new Date(deps.clock.now());
  const outcome = buildOutcome(state, now, {
    status: 'succeeded',
    finalHost: state.verify?.host ?? state.migration.dest_host,
  });
  await guarded('record the migration', () => deps.records.record(outcome));
  await guarded('record the last-migrated time', () =>
    deps.records.markMigrated(
      state.migration.instance_uuid,
      outcome.finished_at,
      outcome.final_host ?? undefined,
    ),
  );
  return outcome;
}
