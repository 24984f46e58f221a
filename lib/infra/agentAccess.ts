/**
 * What `placid agent` may do in AWS, as one managed policy and a role carrying it: take and answer
 * the tasks of its one activity (GetActivityTask, SendTask*), send the collector's reports to the
 * ingest queue, and read the three driver secrets. No table, no other queue, no Lambda: the state
 * machine hands each step everything it needs. With a trust anchor and certificate subjects
 * configured, a role for IAM Roles Anywhere carries it (rolesAnywhereRole.ts); else attach the
 * policy to another identity (a user, an EKS service account role).
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import { ManagedPolicy, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IActivity } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { RolesAnywhereRole } from './rolesAnywhereRole.js';
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
  /** The trust anchor and certificate CNs of the agents' role; without them, no role (attach the policy). */
  readonly rolesAnywhere?: { trustAnchorArn: string; subjects: readonly string[] };
}

export class AgentAccess extends Construct {
  readonly policy: ManagedPolicy;
  readonly role?: Role;

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
    if (props.rolesAnywhere) {
      this.role = new RolesAnywhereRole(this, 'RolesAnywhere', {
        ...props.rolesAnywhere,
        policy: this.policy,
        purpose: 'Agent',
      }).role;
    }
  }
}
