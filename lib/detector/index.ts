/**
 * The detector: the reconcile loop that turns the store's samples into plans and sends their
 * migrations, wave by wave, to the plan queue; and the operator's approval.
 */

export type { StoredPlan } from '../model/plan.js';
export { approvePlan } from './approve.js';
export {
  ExpiredPlanApprovalError,
  PlanApprovalError,
  PlanNotPendingError,
  UnknownPlanError,
} from './errors.js';
export { DETECTOR_LEASE, DETECTOR_LEASE_TTL_MS, reconcile } from './reconcile.js';
export { runTriggered } from './run.js';
export { DETECTOR_STATE_ID } from './state.js';
export { DETECT_SCHEDULE_INPUT, DetectorEventError, parseTrigger } from './trigger.js';
export type { DetectorDeps, ReconcileResult } from './types.js';
