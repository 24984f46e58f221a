/**
 * The definition the build emits (dist/workflow-definition.json), which every local run loads
 * instead of synthesizing CDK, must be the state machine `cdk synth` gives the whole stack: this
 * synthesizes the stack once and fails when the two drift (rebuild with `npm run build`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../lib/config/packageRoot.js';
import { synthesizeWorkflowAsl } from '../../lib/infra/workflowAsl.js';
import {
  aslFromTemplate,
  emittedDefinition,
  LOCAL_ARNS,
  WorkflowDefinitionError,
  workflowDefinition,
} from '../../lib/local/workflowDefinition.js';
import { DEFINITION_SUBSTITUTIONS, WORKFLOW_DEFINITION_FILE } from '../../lib/workflow/definitionFile.js';
import { tempFiles } from '../cli/runCli.js';
import { synthTemplate } from './synth.js';

const root = packageRoot();
const emittedPath = join(root, WORKFLOW_DEFINITION_FILE);

/** Each Task's Resource as its kind: the stack's ARNs and the local ones differ in name only. */
function byKind(definition: unknown): unknown {
  const kind = (key: string, value: unknown) =>
    key === 'Resource' && typeof value === 'string'
      ? value.includes(':activity:')
        ? 'activity'
        : value.includes(':function:')
          ? 'function'
          : `unknown ${value}`
      : value;
  return JSON.parse(JSON.stringify(definition, kind));
}

let template: Template;
beforeAll(() => {
  template = synthTemplate();
});

describe('the emitted workflow definition', () => {
  it('is the state machine the whole stack synthesizes', () => {
    const stack = aslFromTemplate(template.toJSON() as Parameters<typeof aslFromTemplate>[0]);
    const emitted = workflowDefinition();
    expect(Object.keys(emitted.States).length).toBeGreaterThan(20);
    expect(byKind(emitted), `${emittedPath} is stale: run \`npm run build\``).toEqual(byKind(stack));
  });

  it('is what the emitter synthesizes now, substitutions and all', () => {
    const onDisk = JSON.parse(readFileSync(emittedPath, 'utf8'));
    expect(onDisk).toEqual(synthesizeWorkflowAsl(root));
    const text = JSON.stringify(onDisk);
    expect(text).toContain(`"Resource":"\${${DEFINITION_SUBSTITUTIONS.stepsFunction}}"`);
    expect(text).toContain(`"Resource":"\${${DEFINITION_SUBSTITUTIONS.agentActivity}}"`);
  });

  it('loads with every substitution filled in with the local ARNs', () => {
    const resources = Object.values(workflowDefinition().States)
      .map((s) => (s as { Resource?: string }).Resource)
      .filter((r) => r !== undefined);
    expect(new Set(resources)).toEqual(new Set(Object.values(LOCAL_ARNS)));
  });
});

describe('the loaded definition', () => {
  it('is a copy of its own for each caller: aws-local-stepfunctions writes into what it runs', () => {
    // Prepare
    const first = workflowDefinition();
    // Act: what a run does to it (each state gets a QueryLanguage)
    for (const state of Object.values(first.States)) Object.assign(state, { QueryLanguage: 'JSONPath' });
    // Assess
    expect(JSON.stringify(workflowDefinition())).not.toContain('QueryLanguage');
  });
});

describe('a definition file that cannot be run', () => {
  const files = tempFiles();

  it('is missing: the error names the file and says how to make it', () => {
    const path = join(files.dir, WORKFLOW_DEFINITION_FILE);
    expect(() => emittedDefinition(path)).toThrowError(WorkflowDefinitionError);
    expect(() => emittedDefinition(path)).toThrowError(
      `${path}: cannot read it (ENOENT): run \`npm run build\``,
    );
  });

  it('names a substitution the runner does not know', () => {
    const path = files.write(
      'asl.json',
      JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: `\${Nope}`, End: true } } }),
    );
    expect(() => emittedDefinition(path)).toThrowError(`${path}: unknown substitution \${Nope}`);
  });

  it('is not a state machine', () => {
    const path = files.write('asl.json', JSON.stringify({ States: {} }));
    expect(() => emittedDefinition(path)).toThrowError(`${path}: not a state machine definition`);
    const broken = files.write('broken.json', '{"StartAt": ');
    expect(() => emittedDefinition(broken)).toThrowError(`${broken}: not JSON`);
  });
});

describe('the state machine in the stack', () => {
  it('is a Standard state machine that logs ALL events and traces', () => {
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: true }),
      TracingConfiguration: { Enabled: true },
    });
  });

  it('starts executions from the plan queue with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: {
        'Fn::GetAtt': [Match.stringLikeRegexp('^QueuesPlansQueue'), 'Arn'],
      },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: ['states:ListExecutions', 'states:StartExecution'] }),
        ]),
      },
    });
  });
});
