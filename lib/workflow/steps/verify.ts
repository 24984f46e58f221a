/** Step 5: after Nova reports the migration completed, the server must be ACTIVE on the destination. */
import { VerificationFailedError, VerificationPendingError } from '../errors.js';
import type { AgentStepDeps } from '../ports.js';
import type { VerifyResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function verify(state: WorkflowState, deps: AgentStepDeps): Promise<VerifyResult> {
  const { migration } = state;
  const nova = await deps.nova();
  const server = await guarded('read the server', () => nova.getServer(migration.instance_uuid));
  const seen = `${server.status} on ${server.host ?? 'an unknown host'}`;
  // Nova finishes post-migration work after the migration record says completed.
  if (server.taskState !== null) {
    throw new VerificationPendingError(
      `VM ${migration.instance_uuid} is still ${server.taskState} (${seen})`,
    );
  }
  if (server.status !== 'ACTIVE' || server.host !== migration.dest_host) {
    throw new VerificationFailedError(
      `after the migration VM ${migration.instance_uuid} is ${seen}, expected ACTIVE on ${migration.dest_host}`,
    );
  }
  return { host: server.host, status: server.status, verified_at: new Date(deps.clock.now()).toISOString() };
}
