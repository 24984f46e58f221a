/**
 * The workflow's steps by where they run: CLOUD_STEPS in the workflow-steps Lambda (leases and
 * records: the store only), AGENT_STEPS on a `placid agent` inside the operator's network (Nova,
 * Kubernetes, Consul only). The state machine definition takes its task list from these maps, so
 * it and the two runners cannot name different steps without a test noticing. The Lambda imports
 * cloudSteps.ts alone, so its bundle carries no driver code.
 */
import { AGENT_STEPS, type AgentStepName } from './agentSteps.js';
import { CLOUD_STEPS, type CloudStepName } from './cloudSteps.js';

export { AGENT_STEPS, type AgentStepName } from './agentSteps.js';
export { CLOUD_STEPS, type CloudStepName } from './cloudSteps.js';

export type StepName = CloudStepName | AgentStepName;
export const CLOUD_STEP_NAMES = Object.keys(CLOUD_STEPS) as CloudStepName[];
export const AGENT_STEP_NAMES = Object.keys(AGENT_STEPS) as AgentStepName[];
