/** One invocation of the detector: approve first when the event is an approval, then reconcile. */

import type { StoredPlan } from '../model/plan.js';
import { approvePlan } from './approve.js';
import { PlanNotPendingError } from './errors.js';
import { reconcile } from './reconcile.js';
import type { DetectTrigger } from './trigger.js';
import type { DetectorDeps, ReconcileResult } from './types.js';

export interface TriggeredRun {
  trigger: DetectTrigger;
  /** The plan this invocation approved. */
  approved?: StoredPlan;
  result: ReconcileResult;
}

export async function runTriggered(trigger: DetectTrigger, deps: DetectorDeps): Promise<TriggeredRun> {
  let approved: StoredPlan | undefined;
  if (trigger.kind === 'approved') {
    try {
      approved = await approvePlan(deps.store, trigger.planId, new Date(deps.clock.now()));
    } catch (error) {
      // EventBridge delivers at least once: a repeated approval of the same plan is not a failure.
      if (!(error instanceof PlanNotPendingError && ['approved', 'completed'].includes(error.status)))
        throw error;
      deps.logger?.info('plan already approved', { plan_id: trigger.planId });
    }
  }
  return { trigger, approved, result: await reconcile(deps) };
}
