/**
 * What `placid agent` may do in AWS, as one managed policy and a role carrying it: take and answer
 * the tasks of its one activity (GetActivityTask, SendTask*), send the collector's reports to the
 * ingest queue, and read the three driver secrets. No table, no other queue, no Lambda: the state
 * machine hands each step everything it needs. The role trusts IAM Roles Anywhere (certificate
 * based credentials for hosts outside AWS), limited to the configured trust anchor when there is
 * one, else to this account's anchors; attach the policy to any other identity (a user, an EKS service account role) instead.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IActivity } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ServiceSecrets } from './secrets.js';
import type { ServiceQueue } from './serviceQueue.js';

export const AGENT_ACTIVITY_ACTIONS = [
  'states:GetActivityTask',
  'states:SendTaskSuccess',
  'states:SendTaskFailure',
  'states:SendTaskHeartbeat',
] as const;

export interface AgentAccessProps {
  readonly activity: IActivity;
  readonly ingestQueue: ServiceQueue;
  readonly secrets: ServiceSecrets;
  /** Only certificates of this IAM Roles Anywhere trust anchor may assume the role. */
  readonly trustAnchorArn?: string;
}

export class AgentAccess extends Construct {
  readonly policy: ManagedPolicy;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: AgentAccessProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // A secret referenced by name has a random six-character suffix in its ARN.
    const secretArns = Object.values(props.secrets.secrets).map((secret) =>
      stack.formatArn({
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: `${secret.secretName}-??????`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    );
    this.policy = new ManagedPolicy(this, 'Policy', {
      description: 'placid agent: the on-premises steps activity, the ingest queue, the driver secrets',
      statements: [
        new PolicyStatement({
          actions: [...AGENT_ACTIVITY_ACTIONS],
          resources: [props.activity.activityArn],
        }),
        ...props.ingestQueue.sendStatements(),
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
          resources: secretArns,
        }),
      ],
    });
    // Without a named trust anchor, any trust anchor of this account (never another account's).
    const principal = new ServicePrincipal('rolesanywhere.amazonaws.com').withConditions(
      props.trustAnchorArn
        ? { ArnEquals: { 'aws:SourceArn': props.trustAnchorArn } }
        : { StringEquals: { 'aws:SourceAccount': stack.account } },
    );
    this.role = new Role(this, 'Role', {
      description: 'placid agent (IAM Roles Anywhere)',
      assumedBy: principal,
      managedPolicies: [this.policy],
    });
    this.role.assumeRolePolicy?.addStatements(
      new PolicyStatement({
        actions: ['sts:TagSession', 'sts:SetSourceIdentity'],
        principals: [principal],
      }),
    );
  }
}
