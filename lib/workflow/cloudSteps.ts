/**
 * The steps the workflow-steps Lambda runs: leases, the plan's checks against the store, records.
 * Kept apart from the agent's steps so the Lambda bundle carries no driver code at all.
 */
import type { CloudStepDeps } from './ports.js';
import type { WorkflowState } from './state.js';
import { checkedRequest } from './stepRequest.js';
import { acquireLeases } from './steps/acquireLeases.js';
import { checkPlan } from './steps/checkPlan.js';
import { recordOutcome } from './steps/recordOutcome.js';
import { recordRollback } from './steps/recordRollback.js';
import { releaseLeases } from './steps/releaseLeases.js';
import { renewLeases } from './steps/renewLeases.js';

export const CLOUD_STEPS = {
  acquireLeases,
  checkPlan,
  renewLeases,
  releaseLeases,
  recordOutcome,
  recordRollback: (state, deps) => recordRollback(state, deps, 'failed'),
  recordDeferral: (state, deps) => recordRollback(state, deps, 'deferred'),
} satisfies Record<string, (state: WorkflowState, deps: CloudStepDeps) => Promise<unknown>>;

export type CloudStepName = keyof typeof CLOUD_STEPS;

/** A step of the workflow-steps Lambda. */
export async function dispatchCloudStep(request: unknown, deps: CloudStepDeps): Promise<unknown> {
  const { step, state } = checkedRequest(request, CLOUD_STEPS, 'in AWS');
  return CLOUD_STEPS[step as CloudStepName](state, deps);
}
