/** Step 7: give the leases back. Releasing one already released or expired is fine (idempotent). */
import { candidateLeases } from '../leaseNames.js';
import type { CloudStepDeps } from '../ports.js';
import type { WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export interface ReleaseResult {
  released: number;
  /** Already free, expired or taken over: nothing to give back. */
  not_held: number;
}

export async function releaseLeases(state: WorkflowState, deps: CloudStepDeps): Promise<ReleaseResult> {
  const owner = state.migration.migration_id;
  // Without a grant (acquire failed part-way or crashed), release every lease it could have taken.
  const names = state.leases?.names ?? candidateLeases(state.migration, deps.settings);
  const results = await Promise.all(
    names.map((name) => guarded(`release lease ${name}`, () => deps.leases.releaseLease(name, owner))),
  );
  const released = results.filter(Boolean).length;
  return { released, not_held: results.length - released };
}
