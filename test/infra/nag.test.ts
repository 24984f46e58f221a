import { App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStack } from './synth.js';

const ACKNOWLEDGED = Validations.ACKNOWLEDGED_RULES_METADATA_KEY;

/** Every acknowledgement in the tree: where, which finding, and why. */
function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === ACKNOWLEDGED)
      .flatMap((m) => Object.entries(m.data as Record<string, string>))
      .map(([id, reason]) => ({ path: c.node.path, id: id.replace(/^Annotation::/, ''), reason })),
  );
}

describe('cdk-nag AwsSolutions', () => {
  let app: App;
  beforeAll(() => {
    // CDK's built-in CloudFormation validation stays off here (seconds of CPU); `cdk synth` runs it.
    app = buildStack().app;
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  });

  it('finds nothing unacknowledged in the stack', () => {
    expect(() => app.synth()).not.toThrow();
  });

  it('acknowledges the X-Ray wildcard resource on the stage function roles, saying why', () => {
    const acks = acknowledgements(app);
    expect(acks.map((a) => `${a.path} ${a.id}`)).toEqual(
      expect.arrayContaining([
        'Placid/Ingest/FunctionRole AwsSolutions-IAM5[Resource::*]',
        'Placid/Schedule/HttpFunctionRole AwsSolutions-IAM5[Resource::*]',
        'Placid/Schedule/QueueFunctionRole AwsSolutions-IAM5[Resource::*]',
        'Placid/Detect/FunctionRole AwsSolutions-IAM5[Resource::*]',
      ]),
    );
    const xray = acks.filter((a) => a.id === 'AwsSolutions-IAM5[Resource::*]' && /Function/.test(a.path));
    expect(xray.length).toBeGreaterThanOrEqual(6);
    for (const { reason } of xray) expect(reason).toMatch(/xray:.*resource-level/);
  });

  it('acknowledges only what the detector’s triggers cannot avoid, saying why', () => {
    const acks = acknowledgements(app).filter((a) => a.path.startsWith('Placid/Detect/'));
    expect(acks.map((a) => `${a.path} ${a.id.replace(/<.*>/, '<fn>')}`).sort()).toEqual([
      'Placid/Detect/FunctionRole AwsSolutions-IAM5[Resource::*]',
      'Placid/Detect/TriggerDeadLetters/DeadLetter AwsSolutions-SQS3',
      'Placid/Detect/Triggers/SchedulerRole AwsSolutions-IAM5[Resource::<fn>:*]',
    ]);
  });

  it('gives every acknowledgement in the stack a reason of its own', () => {
    for (const { path, id, reason } of acknowledgements(app))
      expect(reason.length, `${path} ${id}`).toBeGreaterThan(30);
  });

  it('fails the synth of a stack that breaks a rule (the check is live)', () => {
    const control = new App({ builtinCloudFormationValidation: false });
    new Queue(new Stack(control, 'Control'), 'Plain');
    Validations.of(control).addPlugins(new AwsSolutionsChecks(control));
    expect(() => control.synth()).toThrow(/AwsSolutions-SQS/);
  });
});
