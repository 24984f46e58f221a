/**
 * In AWS, inside the poll loop when the agent's poll said `renew_due`: renew every lease the
 * migration holds for another lease time. Acquiring a lease the owner already holds renews it.
 */
import type { CloudStepDeps } from '../ports.js';
import { leaseTtlMs } from '../settings.js';
import type { LeaseRenewal, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function renewLeases(state: WorkflowState, deps: CloudStepDeps): Promise<LeaseRenewal> {
  const now = new Date(deps.clock.now());
  const ttlMs = leaseTtlMs(state.migration.estimated_seconds, deps.settings);
  const grant = state.leases;
  if (grant) {
    await Promise.all(
      grant.names.map((name) =>
        guarded(`renew lease ${name}`, () => deps.leases.acquireLease(name, grant.owner, ttlMs)),
      ),
    );
  }
  return { leases_until: new Date(now.getTime() + ttlMs).toISOString(), renewed_at: now.toISOString() };
}
