/**
 * The stack's side of `placid agent`: the on-premises steps are activity tasks, no function needs
 * a route into the operator's network, and the agents' policy grants exactly what they use.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/model/errors.js';
import { buildStack, synthTemplate } from './synth.js';

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
  it('has one activity for the on-premises steps and outputs its ARN and the policy', () => {
    expect(Object.keys(template.findResources('AWS::StepFunctions::Activity'))).toHaveLength(1);
    const outputs = Object.keys(template.findOutputs('*'));
    for (const name of ['AgentActivityArn', 'AgentPolicyArn']) {
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

  it('makes no agent role without a trust anchor and certificate subjects: attach AgentPolicyArn instead', () => {
    expect(rolesAnywhereRoles(template)).toEqual([]);
    expect(Object.keys(template.findResources('AWS::RolesAnywhere::Profile'))).toEqual([]);
  });
});

const ANCHOR =
  'arn:aws:rolesanywhere:us-east-1:123456789012:trust-anchor/0b8c3a4e-1f2d-4c5b-9a6e-7d8f9e0a1b2c';

/** Roles whose trust names IAM Roles Anywhere, as [logical id, trust statements]. */
function rolesAnywhereRoles(t: Template): Array<[string, Array<Record<string, unknown>>]> {
  return Object.entries(t.findResources('AWS::IAM::Role'))
    .map(
      ([id, r]) =>
        [id, r.Properties.AssumeRolePolicyDocument.Statement] as [string, Array<Record<string, unknown>>],
    )
    .filter(([, statements]) => JSON.stringify(statements).includes('rolesanywhere.amazonaws.com'));
}

describe('IAM Roles Anywhere', () => {
  it.each([
    ['agent', 'Agent'],
    ['scheduler', 'Scheduler'],
  ])('conditions the %s role on the trust anchor and on the certificate subject CN', (who, purpose) => {
    // Prepare
    const t = synthTemplate({
      context: {
        [`placid:${who}TrustAnchorArn`]: ANCHOR,
        [`placid:${who}CertificateSubjects`]: 'placid-1.mgmt.example, placid-2.mgmt.example',
      },
    });
    // Assess: every statement of the trust carries both conditions, so no other certificate of the CA may assume it
    const roles = rolesAnywhereRoles(t);
    expect(roles).toHaveLength(1);
    const [, statements] = roles[0];
    expect(statements.flatMap((s) => s.Action as string[]).sort()).toEqual([
      'sts:AssumeRole',
      'sts:SetSourceIdentity',
      'sts:TagSession',
    ]);
    for (const statement of statements) {
      expect(statement.Condition).toEqual({
        ArnEquals: { 'aws:SourceArn': ANCHOR },
        StringEquals: {
          'aws:PrincipalTag/x509Subject/CN': ['placid-1.mgmt.example', 'placid-2.mgmt.example'],
        },
      });
    }
    // A profile hands out that role, and the outputs name both for aws_signing_helper.
    const profiles = Object.values(t.findResources('AWS::RolesAnywhere::Profile'));
    expect(profiles.map((p) => p.Properties.RoleArns)).toEqual([[{ 'Fn::GetAtt': [roles[0][0], 'Arn'] }]]);
    const outputs = Object.keys(t.findOutputs('*'));
    for (const name of [`${purpose}RoleArn`, `${purpose}ProfileArn`]) {
      expect(
        outputs.some((o) => o.includes(name)),
        name,
      ).toBe(true);
    }
  });

  it.each([
    ['agent', { 'placid:agentCertificateSubjects': 'placid-1' }, 'placid:agentTrustAnchorArn: required'],
    ['agent', { 'placid:agentTrustAnchorArn': ANCHOR }, 'placid:agentCertificateSubjects: required'],
    [
      'scheduler',
      { 'placid:schedulerCertificateSubjects': ['nova-1'] },
      'placid:schedulerTrustAnchorArn: required',
    ],
    ['scheduler', { 'placid:schedulerTrustAnchorArn': ANCHOR }, 'any certificate of that CA'],
    [
      'agent',
      { 'placid:agentTrustAnchorArn': ANCHOR, 'placid:agentCertificateSubjects': '*' },
      'certificate CN',
    ],
  ])('refuses a %s role trust missing a part, naming the setting (%j)', (_who, context, message) => {
    expect(() => buildStack({ context })).toThrow(ConfigError);
    expect(() => buildStack({ context })).toThrow(message);
  });
});
