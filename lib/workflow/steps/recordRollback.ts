/**
 * The failure path's AWS half, after the agent's cleanup (rollback.ts): release the leases and
 * record the outcome with its cause. When the cleanup gave up (`cleanup_failure`), the record says
 * why and the leases stay held until they expire, so nothing else starts on a VM whose node may
 * still be out of service; the state machine then ends in CleanupFailed.
 */

import type { MigrationOutcomeStatus } from '../../model/migration.js';
import { buildOutcome, causeText } from '../outcome.js';
import type { CloudStepDeps } from '../ports.js';
import type { WorkflowState } from '../state.js';
import { guarded } from '../translate.js';
import { releaseLeases } from './releaseLeases.js';

export interface RollbackResult {
  status: MigrationOutcomeStatus;
  final_host: string | null;
  /** One line for the execution's failure cause (the Fail state's CausePath). */
  summary: string;
}

export async function recordRollback(
  state: WorkflowState,
  deps: CloudStepDeps,
  status: Exclude<MigrationOutcomeStatus, 'succeeded'> = 'failed',
): Promise<RollbackResult> {
  const gaveUp = state.cleanup_failure;
  if (!gaveUp) await releaseLeases(state, deps);
  const finalHost = state.cleanup?.final_host ?? (gaveUp ? null : knownHost(state));
  // Verified on the destination means the move happened: the failure was in the cleanup after it.
  // Or Nova finished it despite the abort (refused in post-migrating): the move happened.
  const landed = state.verify !== undefined || state.cleanup?.landed === true;
  const recorded: MigrationOutcomeStatus = landed ? 'succeeded' : status;
  const outcome = buildOutcome(state, new Date(deps.clock.now()), {
    status: recorded,
    finalHost,
    novaMigrationId: state.cleanup?.nova_migration_id ?? undefined,
    cleanupProblems: gaveUp ? [`${gaveUp.Error}: ${causeText(gaveUp)}`] : [],
  });
  await guarded('record the migration', () => deps.records.record(outcome));
  if (landed) {
    const at = state.verify?.verified_at ?? new Date(deps.clock.now()).toISOString();
    await guarded('record the last-migrated time', () =>
      deps.records.markMigrated(state.migration.instance_uuid, at, finalHost ?? undefined),
    );
  }
  const failure = state.failure
    ? `${state.failure.Error}: ${causeText(state.failure)}`
    : 'no failure recorded';
  const restored = gaveUp
    ? `cleanup gave up (${gaveUp.Error}), leases kept until they expire`
    : 'node back in service, leases released';
  return {
    status: recorded,
    final_host: finalHost,
    summary: `${recorded}: ${failure}; VM on ${finalHost ?? 'an unknown host'}; ${restored}`,
  };
}

function knownHost(state: WorkflowState): string | null {
  if (state.verify) return state.verify.host;
  return state.recheck && !state.drain ? state.migration.source_host : null;
}
