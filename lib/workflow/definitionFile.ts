/**
 * The migration state machine's definition as the build emits it (`npm run build`, see
 * lib/infra/workflowAsl.ts): the ASL that CDK synthesizes for the stack, with each Task's resource
 * left as a Step Functions definition substitution (`${Name}`). Local runs (`placid migrate`, the
 * simulation, the tests) load this file and fill in the substitutions, instead of synthesizing CDK
 * at run time; test/infra/workflowDefinitionFile.test.ts fails when it drifts from `cdk synth`.
 */

/** Where the build writes the definition, relative to the package root. */
export const WORKFLOW_DEFINITION_FILE = 'dist/workflow-definition.json';

/** The substitution names the Task resources carry in the emitted definition. */
export const DEFINITION_SUBSTITUTIONS = {
  /** The workflow-steps Lambda (the AWS-side steps). */
  stepsFunction: 'StepsFunctionArn',
  /** The activity the agents poll (the on-premises steps). */
  agentActivity: 'AgentActivityArn',
} as const;

export type SubstitutionName = (typeof DEFINITION_SUBSTITUTIONS)[keyof typeof DEFINITION_SUBSTITUTIONS];

/** The placeholder as it appears in the definition's JSON: `${StepsFunctionArn}`. */
export function placeholder(name: SubstitutionName): string {
  return `\${${name}}`;
}
