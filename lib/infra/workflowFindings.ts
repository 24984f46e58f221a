/** The cdk-nag findings the workflow accepts, each with its reason (cdk-nag v3: one per finding). */
import { Stack, Validations } from 'aws-cdk-lib';
import type { MigrationWorkflow } from './workflow.js';

export function acknowledgeWorkflowFindings(workflow: MigrationWorkflow): void {
  const xray = {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions',
  };
  for (const fn of [workflow.stepsFunction, workflow.starterFunction])
    Validations.of(fn.role!).acknowledge(xray);
  const role = workflow.stateMachine.role;
  Validations.of(role).acknowledge({
    ...xray,
    reason: `${xray.reason}; CloudWatch Logs delivery (logs:CreateLogDelivery and friends) has none either`,
  });
  const fnArn = Stack.of(workflow).getLogicalId(workflow.stepsFunction.node.defaultChild as never);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${fnArn}.Arn>:*]`,
    reason: 'LambdaInvoke grants every version and alias of the one steps function (CDK default)',
  });
}
