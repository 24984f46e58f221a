/**
 * The stack's side of `placid agent`: the on-premises steps are activity tasks, no function needs
 * a route into the operator's network, and the agents' policy grants exactly what they use.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthTemplate } from './synth.js';

let template: Template;
beforeAll(() => {
  template = synthTemplate();
});

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

function agentPolicy(): Statement[] {
  const policies = Object.entries(template.findResources('AWS::IAM::ManagedPolicy')).filter(([id]) =>
    id.startsWith('WorkflowAgentsPolicy'),
  );
  expect(policies).toHaveLength(1);
  return policies[0][1].Properties.PolicyDocument.Statement as Statement[];
}

describe('the agents in the stack', () => {
  it('has one activity for the on-premises steps and outputs its ARN, the policy and the role', () => {
    expect(Object.keys(template.findResources('AWS::StepFunctions::Activity'))).toHaveLength(1);
    const outputs = Object.keys(template.findOutputs('*'));
    for (const name of ['AgentActivityArn', 'AgentPolicyArn', 'AgentRoleArn']) {
      expect(
        outputs.some((o) => o.includes(name)),
        name,
      ).toBe(true);
    }
  });

  it('puts no function in a VPC and gives no function the driver secrets', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const fn of functions) expect(fn.Properties.VpcConfig).toBeUndefined();
    const functionPolicies = Object.entries(template.findResources('AWS::IAM::Policy'));
    const secretReaders = functionPolicies.filter(([, p]) =>
      (p.Properties.PolicyDocument.Statement as Statement[]).some((s) =>
        list(s.Action).includes('secretsmanager:GetSecretValue'),
      ),
    );
    expect(secretReaders.map(([id]) => id)).toEqual([]);
  });

  it('lets agents take and answer tasks of that activity only, send reports, and read the three secrets', () => {
    const statements = agentPolicy();
    const actions = statements.flatMap((s) => list(s.Action)).sort();
    expect(actions).toEqual(
      [
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
        'sqs:SendMessage',
        'states:GetActivityTask',
        'states:SendTaskFailure',
        'states:SendTaskHeartbeat',
        'states:SendTaskSuccess',
        ...actions.filter((a) => a.startsWith('kms:')),
      ].sort(),
    );
    const states = statements.find((s) => list(s.Action).includes('states:GetActivityTask'))!;
    expect(states.Resource).toEqual({ Ref: expect.stringMatching(/^WorkflowAgentSteps/) });
    const secrets = statements.find((s) => list(s.Action).includes('secretsmanager:GetSecretValue'))!;
    expect(secrets.Resource).toEqual(
      ['consul', 'kubernetes', 'nova'].map(
        (n) => `arn:aws:secretsmanager:us-east-1:123456789012:secret:placid/${n}-??????`,
      ),
    );
    expect(JSON.stringify(statements)).not.toMatch(/dynamodb|lambda:|"\*"/);
  });

  it('lets only IAM Roles Anywhere of this account assume the agent role', () => {
    const roles = Object.entries(template.findResources('AWS::IAM::Role')).filter(([id]) =>
      id.startsWith('WorkflowAgentsRole'),
    );
    expect(roles).toHaveLength(1);
    const trust = roles[0][1].Properties.AssumeRolePolicyDocument.Statement as Array<Record<string, unknown>>;
    expect(trust[0]).toMatchObject({
      Action: 'sts:AssumeRole',
      Principal: { Service: 'rolesanywhere.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': expect.anything() } },
    });
  });
});
