/** An operator's approval of a plan made in approve mode: the next reconcile starts sending it. */

import type { StoredPlan } from '../model/plan.js';
import type { FleetStore } from '../store/fleetStore.js';
import { checkPlanId, ExpiredPlanApprovalError, PlanNotPendingError, UnknownPlanError } from './errors.js';

/**
 * Marks `planId` approved.
 * @throws InvalidPlanIdError (empty, over 128 characters, control characters or broken Unicode), UnknownPlanError, ExpiredPlanApprovalError (also when past its expiry but not yet marked),
 *   PlanNotPendingError (a recommendation, or already approved, completed…)
 * @example await approvePlan(store, 'plan-3f2a…', new Date())
 */
export async function approvePlan(
  store: Pick<FleetStore, 'plans'>,
  planId: string,
  now: Date,
): Promise<StoredPlan> {
  checkPlanId(planId);
  const plan = await store.plans.get(planId);
  if (!plan) throw new UnknownPlanError(planId);
  if (plan.status === 'expired' || Date.parse(plan.plan_expires_at) <= now.getTime()) {
    throw new ExpiredPlanApprovalError(planId, plan.plan_expires_at);
  }
  if (plan.status !== 'pending_approval') throw new PlanNotPendingError(planId, plan.status);
  const approvedAt = now.toISOString();
  if (!(await store.plans.setStatus(planId, ['pending_approval'], 'approved', { approved_at: approvedAt }))) {
    // Changed since the read (approved by someone else, or expired by the detector).
    const current = await store.plans.get(planId);
    throw new PlanNotPendingError(planId, current?.status ?? 'gone');
  }
  return { ...plan, status: 'approved', approved_at: approvedAt };
}
