/**
 * The one entry of the workflow steps: `{step, state}` in, the step's result out. Steps are
 * registered in two typed maps by where they run: CLOUD_STEPS in the workflow-steps Lambda (leases
 * and records: the store only), AGENT_STEPS on a `placid agent` inside the operator's network (Nova,
 * Kubernetes, Consul only). The state machine definition takes its task list from these maps, so
 * it and the two runners cannot name different steps without a test noticing.
 */
import { UnknownStepError } from './errors.js';
import type { AgentStepDeps, CloudStepDeps } from './ports.js';
import type { WorkflowState } from './state.js';
import { acquireLeases } from './steps/acquireLeases.js';
import { checkPlan } from './steps/checkPlan.js';
import { onDeadline } from './steps/deadline.js';
import { drain } from './steps/drain.js';
import { liveMigrate } from './steps/liveMigrate.js';
import { pollMigration } from './steps/pollMigration.js';
import { recheck } from './steps/recheck.js';
import { recordOutcome } from './steps/recordOutcome.js';
import { recordRollback } from './steps/recordRollback.js';
import { releaseLeases } from './steps/releaseLeases.js';
import { renewLeases } from './steps/renewLeases.js';
import { rollback } from './steps/rollback.js';
import { undrain } from './steps/undrain.js';
import { verify } from './steps/verify.js';

type Step<D> = (state: WorkflowState, deps: D) => Promise<unknown>;

export const CLOUD_STEPS = {
  acquireLeases,
  checkPlan,
  renewLeases,
  releaseLeases,
  recordOutcome,
  recordRollback: (state, deps) => recordRollback(state, deps, 'failed'),
  recordDeferral: (state, deps) => recordRollback(state, deps, 'deferred'),
} satisfies Record<string, Step<CloudStepDeps>>;

export const AGENT_STEPS = {
  recheck,
  drain,
  liveMigrate,
  pollMigration,
  onDeadline,
  verify,
  undrain,
  // Rollback and deferral clean up the same way on-premises; they differ in what AWS records.
  rollback,
  defer: rollback,
} satisfies Record<string, Step<AgentStepDeps>>;

export type CloudStepName = keyof typeof CLOUD_STEPS;
export type AgentStepName = keyof typeof AGENT_STEPS;
export type StepName = CloudStepName | AgentStepName;
export const CLOUD_STEP_NAMES = Object.keys(CLOUD_STEPS) as CloudStepName[];
export const AGENT_STEP_NAMES = Object.keys(AGENT_STEPS) as AgentStepName[];
export const STEP_NAMES: StepName[] = [...CLOUD_STEP_NAMES, ...AGENT_STEP_NAMES];

export interface StepRequest {
  step: StepName;
  state: WorkflowState;
}

/** A step of the workflow-steps Lambda. */
export async function dispatchCloudStep(request: unknown, deps: CloudStepDeps): Promise<unknown> {
  const { step, state } = checkedRequest(request, CLOUD_STEPS, 'in AWS');
  return CLOUD_STEPS[step as CloudStepName](state, deps);
}

/** A step of an agent (`placid agent`). */
export async function dispatchAgentStep(request: unknown, deps: AgentStepDeps): Promise<unknown> {
  const { step, state } = checkedRequest(request, AGENT_STEPS, 'on an agent');
  return AGENT_STEPS[step as AgentStepName](state, deps);
}

function checkedRequest(request: unknown, steps: object, where: string): StepRequest {
  const { step, state } = (request ?? {}) as Partial<StepRequest>;
  if (typeof step !== 'string' || !Object.hasOwn(steps, step)) {
    throw new UnknownStepError(
      `unknown workflow step ${JSON.stringify(step)} ${where}; known: ${Object.keys(steps).join(', ')}`,
    );
  }
  if (typeof state !== 'object' || state === null) {
    throw new UnknownStepError(`step ${step} was invoked without the execution state`);
  }
  return { step, state };
}
