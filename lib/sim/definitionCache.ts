/**
 * The migration state machine's definition for the simulation, without synthesizing the whole
 * Placid stack each run (10-100 s here). Two shortcuts, both checked by test/sim/definition.test.ts:
 * - synthesize only the workflow: `migrationDefinition` (the very function the stack uses) in a
 *   minimal stack, its steps function referenced by ARN, with the stack's step timeout; this gives
 *   the stack's definition but for the Task `Resource` ARNs, which the local runner never calls;
 * - keep the result on disk (node_modules/.cache/placid, else the temp directory), keyed by a hash
 *   of every input that can change it: lib/infra and the workflow's error lists, cdk.json and the
 *   aws-cdk-lib version. A stale cache is impossible short of editing the cached file by hand.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { packageRoot } from '../config/packageRoot.js';

export interface DefinitionLoad {
  definition: StateMachineDefinition;
  from: 'memory' | 'disk' | 'synth';
  /** Where it is cached on disk. */
  path: string;
}

/** The Task Resource the minimal synth gives every step (the runner binds handlers by state name). */
export const STEPS_FUNCTION_ARN = 'arn:aws:lambda:us-east-1:123456789012:function:placid-workflow';

/** The activity the agents poll (the runner routes its tasks to an in-process agent). */
export const AGENT_ACTIVITY_ARN = 'arn:aws:states:us-east-1:123456789012:activity:placid-agent-steps';

let loaded: DefinitionLoad | undefined;

export async function simulationDefinition(): Promise<DefinitionLoad> {
  if (loaded) return { ...loaded, from: 'memory' };
  const root = packageRoot();
  const key = definitionKey(root);
  const path = cacheFile(root, key);
  if (existsSync(path)) {
    try {
      loaded = { definition: JSON.parse(readFileSync(path, 'utf8')), from: 'disk', path };
      return loaded;
    } catch {
      // A torn write: synthesize again below.
    }
  }
  const definition = await synthesizeWorkflowOnly(root);
  try {
    writeFileSync(path, JSON.stringify(definition));
  } catch {
    // Not writable: it is only a cache.
  }
  loaded = { definition, from: 'synth', path };
  return loaded;
}

/** `migrationDefinition` in a minimal stack, with the step timeout PlacidStack gives it. */
export async function synthesizeWorkflowOnly(root = packageRoot()): Promise<StateMachineDefinition> {
  const [
    { App, Stack },
    { Function: LambdaFunction },
    sfn,
    { migrationDefinition, workflowTimeouts },
    settings,
  ] = await Promise.all([
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-lambda'),
    import('aws-cdk-lib/aws-stepfunctions'),
    import('../infra/workflowDefinition.js'),
    import('../workflow/settings.js'),
  ]);
  const context = JSON.parse(readFileSync(join(root, 'cdk.json'), 'utf8')).context ?? {};
  const app = new App({ builtinCloudFormationValidation: false, context });
  const stack = new Stack(app, 'Placid', { env: { account: '123456789012', region: 'us-east-1' } });
  // As lib/infra/workflow.ts: the stack deploys the workflow with default settings.
  const timeouts = workflowTimeouts(settings.parseWorkflowSettings({}));
  const stepsFunction = LambdaFunction.fromFunctionArn(stack, 'StepsFunction', STEPS_FUNCTION_ARN);
  const agentActivity = sfn.Activity.fromActivityArn(stack, 'AgentSteps', AGENT_ACTIVITY_ARN);
  const machine = new sfn.StateMachine(stack, 'StateMachine', {
    definitionBody: sfn.DefinitionBody.fromChainable(
      migrationDefinition(stack, { stepsFunction, agentActivity, ...timeouts }),
    ),
  });
  const template = app.synth().getStackArtifact(stack.artifactId).template as {
    Resources: Record<string, { Type: string; Properties: { DefinitionString: unknown } }>;
  };
  const id = stack.getLogicalId(machine.node.defaultChild as import('aws-cdk-lib').CfnElement);
  const body = template.Resources[id].Properties.DefinitionString;
  return JSON.parse(typeof body === 'string' ? body : joinParts(body)) as StateMachineDefinition;
}

/** A Fn::Join of literal strings (the minimal stack has no other tokens but the partition). */
function joinParts(body: unknown): string {
  const [separator, parts] = (body as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
  return parts
    .map((p) => (typeof p === 'string' ? p : (p as { Ref?: string }).Ref === 'AWS::Partition' ? 'aws' : ''))
    .join(separator);
}

/** A hash of everything the definition is made from. */
export function definitionKey(root: string): string {
  const hash = createHash('sha256');
  const files = [
    ...sourceFiles(join(root, 'lib', 'infra')),
    join(root, 'lib', 'workflow', 'errors.ts'),
    join(root, 'lib', 'workflow', 'settings.ts'),
    join(root, 'cdk.json'),
    join(root, 'node_modules', 'aws-cdk-lib', 'package.json'),
  ];
  for (const file of files) {
    hash.update(file.slice(root.length));
    hash.update(existsSync(file) ? readFileSync(file) : 'missing');
  }
  return hash.digest('hex').slice(0, 24);
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function cacheFile(root: string, key: string): string {
  for (const dir of [join(root, 'node_modules', '.cache', 'placid'), join(tmpdir(), 'placid-cache')]) {
    try {
      mkdirSync(dir, { recursive: true });
      return join(dir, `workflow-definition-${key}.json`);
    } catch {
      // try the next
    }
  }
  return join(tmpdir(), `placid-workflow-definition-${key}.json`);
}
