/** The steps `placid agent` runs inside the operator's network: Nova, Kubernetes and Consul only. */
import type { AgentStepDeps } from './ports.js';
import type { WorkflowState } from './state.js';
import { checkedRequest } from './stepRequest.js';
import { onDeadline } from './steps/deadline.js';
import { drain } from './steps/drain.js';
import { liveMigrate } from './steps/liveMigrate.js';
import { pollMigration } from './steps/pollMigration.js';
import { recheck } from './steps/recheck.js';
import { rollback } from './steps/rollback.js';
import { undrain } from './steps/undrain.js';
import { verify } from './steps/verify.js';

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
} satisfies Record<string, (state: WorkflowState, deps: AgentStepDeps) => Promise<unknown>>;

export type AgentStepName = keyof typeof AGENT_STEPS;

/** A step of an agent (`placid agent`). */
export async function dispatchAgentStep(request: unknown, deps: AgentStepDeps): Promise<unknown> {
  const { step, state } = checkedRequest(request, AGENT_STEPS, 'on an agent');
  return AGENT_STEPS[step as AgentStepName](state, deps);
}
