/**
 * Step 2: check the plan against fresh state before touching anything. The plan must not have
 * expired, no blackout window may be open, the VM must still be ACTIVE and idle on the source, and
 * the destination must still pass the placement engine. It also notes how the VM's node looks
 * before the drain (cordoned? in maintenance for someone else?), so undrain can restore exactly
 * that, and the VM's recent steal for the record.
 */
import { blackoutAt, nextAllowedStart } from '../../rebalance/blackout.js';
import {
  BlackoutWindowError,
  DestinationRejectedError,
  NovaPermissionError,
  PlanExpiredError,
  ServerNotMigratableError,
  VmMovedError,
} from '../errors.js';
import type { StepDeps } from '../ports.js';
import { maintenanceReason } from '../reasons.js';
import type { RecheckResult, WorkflowState } from '../state.js';
import { guarded, NOVA_POLICY_HINT } from '../translate.js';

export async function recheck(state: WorkflowState, deps: StepDeps): Promise<RecheckResult> {
  const { migration } = state;
  const now = deps.now();
  if (now.getTime() >= Date.parse(migration.plan_expires_at)) {
    throw new PlanExpiredError(`plan ${migration.plan_id} expired at ${migration.plan_expires_at}`);
  }
  const { blackout_windows: windows, timezone } = deps.settings;
  const window = blackoutAt(now, windows, timezone);
  if (window) {
    const next = nextAllowedStart(now, windows, timezone).toISOString();
    throw new BlackoutWindowError(
      `blackout window ${window.text} (${timezone}) is open; next allowed start ${next}`,
    );
  }
  await checkServer(state, deps);
  const verdict = await guarded('placement re-check', () => deps.placement.check(migration));
  if (!verdict.passes) {
    throw new DestinationRejectedError(
      `destination ${migration.dest_host} no longer fits: ${verdict.reason}`,
    );
  }
  return {
    checked_at: now.toISOString(),
    pre: await preDrainState(state, deps),
    steal_before_percent: await stealBefore(state, deps, now),
  };
}

async function checkServer(state: WorkflowState, deps: StepDeps): Promise<void> {
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
}

async function preDrainState(state: WorkflowState, deps: StepDeps): Promise<RecheckResult['pre']> {
  const { migration } = state;
  let cordoned: boolean | null = null;
  let reason: string | null = null;
  if (migration.kubernetes_node) {
    const node = migration.kubernetes_node;
    const drainer = await guarded('pick the Kubernetes cluster', () =>
      deps.drainer(migration.kubernetes_cluster),
    );
    cordoned = await guarded(`read node ${node}`, () => drainer.isCordoned(node));
  }
  if (migration.consul) {
    const agent = migration.consul;
    const maintenance = await deps.maintenance();
    const status = await guarded(`read maintenance of ${agent.node}`, () => maintenance.status(agent));
    // Our own reason here means an earlier attempt already enabled it: that is not someone else's.
    if (status.enabled && status.reason !== maintenanceReason(migration)) reason = status.reason ?? '';
  }
  return { cordoned, maintenance_reason: reason };
}

async function stealBefore(state: WorkflowState, deps: StepDeps, now: Date): Promise<number | null> {
  if (!deps.steal) return null;
  const from = new Date(now.getTime() - deps.settings.steal_window_minutes * 60_000);
  // Steal is informational: a store hiccup must not stop the migration.
  return deps.steal(state.migration.instance_uuid, from, now, state.migration.source_host).catch(() => null);
}
