/**
 * The detector: the reconcile loop that turns the store's samples into plans and sends their
 * migrations, wave by wave, to the plan queue; and the operator's approval.
 */

export type { StoredPlan, StoredPlanStatus } from '../model/plan.js';
export { actOnPlans, PLAN_EXPIRED_REASON } from './advance.js';
export { approvePlan } from './approve.js';
export { type Due, workDue } from './due.js';
export {
  ExpiredPlanApprovalError,
  PlanApprovalError,
  PlanNotPendingError,
  UnknownPlanError,
} from './errors.js';
export { inspectPlans, type PlanStep } from './inspect.js';
export { LIVE_STATUSES, livePlansInIndex } from './livePlans.js';
export { migrationIdFor } from './planRecords.js';
export { DETECTOR_LEASE, DETECTOR_LEASE_TTL_MS, reconcile } from './reconcile.js';
export { runTriggered, type TriggeredRun } from './run.js';
export { DETECTOR_STATE_ID, type DetectorState, type TrackedPlan } from './state.js';
export {
  DETECT_EVENT_SOURCE,
  DETECT_REQUESTED,
  DETECT_SCHEDULE_INPUT,
  DetectorEventError,
  type DetectTrigger,
  PLAN_APPROVED,
  parseTrigger,
} from './trigger.js';
export type { DetectorDeps, DetectorLogger, ReconcileResult } from './types.js';
export { type WaveGate, waveGate } from './waveGate.js';
