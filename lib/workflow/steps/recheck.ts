/**
 * Step 2b (on an agent): check the VM itself before touching anything: it must still be ACTIVE and
 * idle on the source. It also notes how the VM's node looks before the drain (cordoned? in
 * maintenance for someone else?), so undrain can restore exactly that. The plan's own checks
 * (expiry, blackout, placement, steal) ran just before in AWS (checkPlan.ts); their steal figure is
 * carried into this result, which is what the record reads.
 */
import type { NovaServer } from '../../drivers/openstack/schemas.js';
import type { MigrationInput } from '../../model/migration.js';
import { NovaPermissionError, ServerNotMigratableError, VmMovedError } from '../errors.js';
import type { AgentStepDeps } from '../ports.js';
import { reasonMark } from '../reasons.js';
import type { DrainTargets, RecheckResult, WorkflowState } from '../state.js';
import { findTargets } from '../targets.js';
import { guarded, NOVA_POLICY_HINT } from '../translate.js';

export async function recheck(state: WorkflowState, deps: AgentStepDeps): Promise<RecheckResult> {
  const server = await checkServer(state, deps);
  const targets = await findTargets(state.migration, server, deps);
  return {
    checked_at: new Date(deps.clock.now()).toISOString(),
    targets,
    pre: await preDrainState(state.migration, targets, deps),
    steal_before_percent: state.plan_check?.steal_before_percent ?? null,
  };
}

async function checkServer(state: WorkflowState, deps: AgentStepDeps): Promise<NovaServer> {
  const { migration } = state;
  const nova = await deps.nova();
  const server = await guarded('read the server', () => nova.getServer(migration.instance_uuid));
  if (server.host !== null && server.host !== migration.source_host) {
    throw new VmMovedError(
      `VM ${migration.instance_uuid} is on ${server.host}, not on the planned source ${migration.source_host}`,
    );
  }
  if (server.host === null) {
    // Nova hides OS-EXT-SRV-ATTR:host from non-admins: every migration would fail the same way.
    throw new NovaPermissionError(
      `Nova does not show VM ${migration.instance_uuid}'s host (OS-EXT-SRV-ATTR:host): ${NOVA_POLICY_HINT}`,
    );
  }
  if (server.status !== 'ACTIVE' || server.taskState !== null) {
    throw new ServerNotMigratableError(
      `VM ${migration.instance_uuid} is ${server.status}${server.taskState ? ` (task ${server.taskState})` : ''}; only an idle ACTIVE server is live-migrated`,
    );
  }
  return server;
}

async function preDrainState(
  migration: MigrationInput,
  targets: DrainTargets,
  deps: AgentStepDeps,
): Promise<RecheckResult['pre']> {
  let cordoned: boolean | null = null;
  let reason: string | null = null;
  if (targets.kubernetes) {
    const { node, cluster } = targets.kubernetes;
    const drainer = await guarded('pick the Kubernetes cluster', () => deps.drainer(cluster));
    cordoned = await guarded(`read node ${node}`, () => drainer.isCordoned(node));
  }
  if (targets.consul) {
    const agent = targets.consul;
    const maintenance = await deps.maintenance();
    const status = await guarded(`read maintenance of ${agent.node}`, () => maintenance.status(agent));
    // Our own reason here means an earlier attempt already enabled it: that is not someone else's.
    if (status.enabled && reasonMark(status.reason)?.migrationId !== migration.migration_id)
      reason = status.reason ?? '';
  }
  return { cordoned, maintenance_reason: reason };
}
