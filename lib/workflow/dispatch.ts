/**
 * The one entry of the workflow-steps Lambda (and of the local runner): `{step, state}` in, the
 * step's result out. Steps are registered in one typed map, so the state machine definition and the
 * handler cannot name different steps without a test noticing.
 */
import { UnknownStepError } from './errors.js';
import type { StepDeps } from './ports.js';
import type { WorkflowState } from './state.js';
import { acquireLeases } from './steps/acquireLeases.js';
import { onDeadline } from './steps/deadline.js';
import { drain } from './steps/drain.js';
import { liveMigrate } from './steps/liveMigrate.js';
import { pollMigration } from './steps/pollMigration.js';
import { recheck } from './steps/recheck.js';
import { recordOutcome } from './steps/recordOutcome.js';
import { releaseLeases } from './steps/releaseLeases.js';
import { rollback } from './steps/rollback.js';
import { undrain } from './steps/undrain.js';
import { verify } from './steps/verify.js';

type Step = (state: WorkflowState, deps: StepDeps) => Promise<unknown>;

export const STEPS = {
  acquireLeases,
  recheck,
  drain,
  liveMigrate,
  pollMigration,
  onDeadline,
  verify,
  undrain,
  releaseLeases,
  recordOutcome,
  rollback: (state, deps) => rollback(state, deps, 'failed'),
  defer: (state, deps) => rollback(state, deps, 'deferred'),
} satisfies Record<string, Step>;

export type StepName = keyof typeof STEPS;
export const STEP_NAMES = Object.keys(STEPS) as StepName[];

export interface StepRequest {
  step: StepName;
  state: WorkflowState;
}

export async function dispatchStep(request: unknown, deps: StepDeps): Promise<unknown> {
  const { step, state } = (request ?? {}) as Partial<StepRequest>;
  if (typeof step !== 'string' || !Object.hasOwn(STEPS, step)) {
    throw new UnknownStepError(
      `unknown workflow step ${JSON.stringify(step)}; known: ${STEP_NAMES.join(', ')}`,
    );
  }
  if (typeof state !== 'object' || state === null) {
    throw new UnknownStepError(`step ${step} was invoked without the execution state`);
  }
  return STEPS[step as StepName](state as WorkflowState, deps);
}
