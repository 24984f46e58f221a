/** The optional collector construct, synthesised once in a small stack of its own, with cdk-nag. */
import { App, Duration, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Vpc } from 'aws-cdk-lib/aws-ec2';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { cdkJsonContext } from '../../bench/bundle.js';
import { COLLECT_ENV } from '../../functions/collect/env.js';
import { PlacidCollector, type PlacidCollectorProps } from '../../lib/infra/collector.js';
import { ConfigError } from '../../lib/model/errors.js';

const ENV = { account: '123456789012', region: 'eu-west-1' };

function testStack() {
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new Stack(app, 'CollectorTest', { env: ENV });
  const props: PlacidCollectorProps = {
    vpc: Vpc.fromVpcAttributes(stack, 'Vpc', {
      vpcId: 'vpc-0123456789abcdef0',
      availabilityZones: ['eu-west-1a', 'eu-west-1b'],
      privateSubnetIds: ['subnet-0aaaaaaaaaaaaaaaa', 'subnet-0bbbbbbbbbbbbbbbb'],
    }),
    ingestQueue: Queue.fromQueueArn(stack, 'Ingest', `arn:aws:sqs:eu-west-1:${ENV.account}:placid-ingest`),
    secrets: {
      openstack: Secret.fromSecretNameV2(stack, 'Nova', 'placid/openstack'),
      prometheus: Secret.fromSecretNameV2(stack, 'Prom', 'placid/prometheus'),
    },
    config: {
      prometheus: { url: 'https://prometheus.internal:9090', auth: { type: 'bearer', secret: 'prometheus' } },
    },
    schedule: Duration.minutes(2),
  };
  return { app, stack, props };
}

describe('PlacidCollector', () => {
  let template: Template;
  beforeAll(() => {
    const { app, stack, props } = testStack();
    new PlacidCollector(stack, 'Collector', props);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // One synth: cdk-nag findings without an acknowledgement make it throw.
    const assembly = app.synth();
    template = Template.fromJSON(assembly.getStackArtifact(stack.artifactId).template);
  });

  it('runs the collector handler in the given VPC subnets', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      VpcConfig: { SubnetIds: ['subnet-0aaaaaaaaaaaaaaaa', 'subnet-0bbbbbbbbbbbbbbbb'] },
    });
  });

  it('gives its role what Lambda needs for network interfaces in the VPC', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      ManagedPolicyArns: [
        {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole',
            ],
          ],
        },
      ],
    });
  });

  it('passes the config, the ingest queue and the secret names in the environment', () => {
    const fn = Object.values(template.findResources('AWS::Lambda::Function'))[0];
    const vars = fn.Properties.Environment.Variables;
    expect(JSON.parse(vars[COLLECT_ENV.config]).prometheus.url).toBe('https://prometheus.internal:9090');
    expect(JSON.stringify(vars[COLLECT_ENV.secretIds])).toContain('placid/openstack');
    expect(vars[COLLECT_ENV.queueUrl]).toBeDefined();
  });

  it('schedules it at the given rate, without late retries', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(2 minutes)',
      Targets: [Match.objectLike({ RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
  });

  it('lets it read the two secrets and send to the queue only', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement,
    );
    const actions = statements.flatMap((s: { Action: string | string[] }) => [s.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 'secretsmanager:GetSecretValue']));
    expect(actions.filter((a: string) => a.startsWith('sqs:')).sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
  });

  it.each([
    ['an invalid config', { prometheus: { url: 'not a url' } }, 'prometheus.url'],
    [
      'a secret the config names but props lack',
      { prometheus: { url: 'http://p:9090' }, openstack: { secret: 'nova' } },
      'nova',
    ],
  ])('refuses %s at synth time', (_what, config, named) => {
    const { stack, props } = testStack();
    expect(() => new PlacidCollector(stack, 'Bad', { ...props, config: config as never })).toThrow(
      ConfigError,
    );
    expect(() => new PlacidCollector(stack, 'Bad2', { ...props, config: config as never })).toThrow(named);
  });
});
