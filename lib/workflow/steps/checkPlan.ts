/**
 * Step 2a (in AWS): check the plan against fresh state in the store before anything on-premises is
 * touched. The plan must not have expired, no blackout window may be open, and the destination must
 * still pass the placement engine; the VM's recent steal is noted for the record. The half of the
 * re-check that needs the operator's network (Nova, Kubernetes, Consul) is Recheck, on an agent.
 */
import { blackoutAt, nextAllowedStart } from '../../rebalance/blackout.js';
import { BlackoutWindowError, DestinationRejectedError, PlanExpiredError } from '../errors.js';
import type { CloudStepDeps } from '../ports.js';
import type { PlanCheckResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function checkPlan(state: WorkflowState, deps: CloudStepDeps): Promise<PlanCheckResult> {
  const { migration } = state;
  const now = new Date(deps.clock.now());
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
  const verdict = await guarded('placement re-check', () => deps.placement.check(migration));
  if (!verdict.passes) {
    throw new DestinationRejectedError(
      `destination ${migration.dest_host} no longer fits: ${verdict.reason}`,
    );
  }
  return {
    checked_at: now.toISOString(),
    placement: verdict.reason,
    steal_before_percent: await stealBefore(state, deps, now),
  };
}

async function stealBefore(state: WorkflowState, deps: CloudStepDeps, now: Date): Promise<number | null> {
  if (!deps.steal) return null;
  const from = new Date(now.getTime() - deps.settings.steal_window_minutes * 60_000);
  // Steal is informational: a store hiccup must not stop the migration.
  return deps.steal(state.migration.instance_uuid, from, now, state.migration.source_host).catch(() => null);
}
