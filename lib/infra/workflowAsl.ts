/**
 * Emits the migration state machine's definition at build time (scripts/build-cli.mjs), so nothing
 * synthesizes CDK at run time. Only the workflow is synthesized: `migrationDefinition` (the very
 * function the stack uses) in a minimal stack with the stack's default step timeouts and comment;
 * the steps function and the agents' activity are template parameters there, which come out as
 * Step Functions definition substitutions (`${StepsFunctionArn}`), the local runner's to fill in.
 * test/infra/workflowDefinitionFile.test.ts checks the file against the whole stack's synth.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Activity, DefinitionBody, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import {
  DEFINITION_SUBSTITUTIONS,
  placeholder,
  type SubstitutionName,
  WORKFLOW_DEFINITION_FILE,
} from '../workflow/definitionFile.js';
import { parseWorkflowSettings } from '../workflow/settings.js';
import { FAKE_ACCOUNT, FAKE_REGION } from './functionsOf.js';
import { migrationDefinition, WORKFLOW_COMMENT, workflowTimeouts } from './workflowDefinition.js';

/** An Amazon States Language document, as far as the emitter needs to know it. */
export interface AslDocument {
  StartAt: string;
  States: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

type Part = string | { Ref?: string };

/** The workflow's ASL with `${…}` substitutions for its Task resources; `root` holds cdk.json. */
export function synthesizeWorkflowAsl(root: string): AslDocument {
  const context = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')).context ?? {};
  const app = new App({ builtinCloudFormationValidation: false, context });
  const stack = new Stack(app, 'Placid', { env: { account: FAKE_ACCOUNT, region: FAKE_REGION } });
  const parameter = (name: SubstitutionName) => new CfnParameter(stack, name).valueAsString;
  const stepsFunction = LambdaFunction.fromFunctionArn(
    stack,
    'StepsFunction',
    parameter(DEFINITION_SUBSTITUTIONS.stepsFunction),
  );
  const agentActivity = Activity.fromActivityArn(
    stack,
    'AgentSteps',
    parameter(DEFINITION_SUBSTITUTIONS.agentActivity),
  );
  // As lib/infra/workflow.ts builds it when `placid:workflowSettings` is absent.
  const timeouts = workflowTimeouts(parseWorkflowSettings({}));
  const machine = new StateMachine(stack, 'StateMachine', {
    comment: WORKFLOW_COMMENT,
    definitionBody: DefinitionBody.fromChainable(
      migrationDefinition(stack, { stepsFunction, agentActivity, ...timeouts }),
    ),
  });
  const template = app.synth().getStackArtifact(stack.artifactId).template as {
    Resources: Record<
      string,
      { Properties: { DefinitionString: string | { 'Fn::Join': [string, Part[]] } } }
    >;
  };
  const id = stack.getLogicalId(machine.node.defaultChild as import('aws-cdk-lib').CfnElement);
  const body = template.Resources[id].Properties.DefinitionString;
  if (typeof body === 'string') return JSON.parse(body);
  const [separator, parts] = body['Fn::Join'];
  return JSON.parse(parts.map((part) => partText(part, stack)).join(separator)) as AslDocument;
}

function partText(part: Part, stack: Stack): string {
  if (typeof part === 'string') return part;
  if (part.Ref === 'AWS::Partition') return 'aws';
  const name = Object.values(DEFINITION_SUBSTITUTIONS).find(
    (n) => part.Ref === stack.getLogicalId(stack.node.findChild(n) as CfnParameter),
  );
  if (!name)
    throw new Error(`the workflow definition references ${JSON.stringify(part)}, not a substitution`);
  return placeholder(name);
}

/** Writes the definition to `root`/dist/workflow-definition.json; returns the file's path. */
export function emitWorkflowDefinition(root: string): string {
  const path = join(root, WORKFLOW_DEFINITION_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(synthesizeWorkflowAsl(root), null, 2)}\n`);
  return path;
}
