/** What every workflow task passes: the step's name and the whole execution state. */
import { UnknownStepError } from './errors.js';
import type { WorkflowState } from './state.js';

export interface StepRequest<Name extends string = string> {
  step: Name;
  state: WorkflowState;
}

/** The request, if it names one of `steps` and carries a state; else UnknownStepError. */
export function checkedRequest(request: unknown, steps: object, where: string): StepRequest {
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
