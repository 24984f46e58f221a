import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionsOf } from '../../lib/infra/functionsOf.js';
import { SERVICE_NAMES } from '../../lib/infra/runtimeEnv.js';
import { synthTemplate } from './synth.js';

type Resource = { Properties: Record<string, any> };

let template: Template;
let functions: [string, Resource][];
beforeAll(() => {
  template = synthTemplate();
  functions = Object.entries(template.findResources('AWS::Lambda::Function'));
});

const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|PRIVATE|API_?KEY/i;
const SECRET_VALUE = /AKIA[0-9A-Z]{16}|-----BEGIN|[A-Za-z0-9+/]{40,}/;

describe('functions', () => {
  it('has the three stage functions, one per Powertools service', () => {
    const services = functions.map(([, f]) => f.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME);
    expect(services.sort()).toEqual(Object.values(SERVICE_NAMES).sort());
  });

  it('runs every function on Node.js 24, arm64, with active tracing', () => {
    for (const [, { Properties: p }] of functions) {
      expect([p.Runtime, p.Architectures, p.TracingConfig]).toEqual(['nodejs24.x', ['arm64'], { Mode: 'Active' }]);
    }
  });

  it('logs JSON into its own log group, which has a retention', () => {
    const groups = template.findResources('AWS::Logs::LogGroup');
    for (const [, { Properties: p }] of functions) {
      expect(p.LoggingConfig.LogFormat).toBe('JSON');
      expect(groups[p.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays).toBe(30);
    }
  });

  it('turns source maps on at run time and sets the Powertools namespace', () => {
    for (const [, { Properties: p }] of functions) {
      expect(p.Environment.Variables).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_METRICS_NAMESPACE: 'Placid',
      });
    }
  });

  it('puts no secret into any environment variable', () => {
    for (const fn of functionsOf(template.toJSON())) {
      for (const [name, value] of Object.entries(fn.environment)) {
        expect(name, `${fn.path} ${name}`).not.toMatch(SECRET_NAME);
        expect(value, `${fn.path} ${name}`).not.toMatch(SECRET_VALUE);
      }
    }
  });

  it('reports partial batch failures from both queue consumers', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.map((m) => m.Properties.FunctionResponseTypes)).toEqual([
      ['ReportBatchItemFailures'],
      ['ReportBatchItemFailures'],
    ]);
  });

  it('caps how many consumers the queues start', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.map((m) => m.Properties.ScalingConfig.MaximumConcurrency).sort()).toEqual([10, 5]);
  });

  it('exposes the schedule endpoint only behind IAM auth', () => {
    const urls = Object.values(template.findResources('AWS::Lambda::Url'));
    expect(urls.map((u) => u.Properties.AuthType)).toEqual(['AWS_IAM']);
    expect(template.findResources('AWS::Lambda::Permission')).toEqual({});
  });
});

describe('IAM', () => {
  const statements = () =>
    [
      ...Object.values(template.findResources('AWS::IAM::Policy')),
      ...Object.values(template.findResources('AWS::IAM::ManagedPolicy')),
    ].flatMap((p) => p.Properties.PolicyDocument.Statement as Record<string, any>[]);
  const list = (x: unknown) => (Array.isArray(x) ? x : [x]);

  it('allows no wildcard action', () => {
    const actions = statements().flatMap((s) => list(s.Action));
    expect(actions.length).toBeGreaterThan(20);
    expect(actions.filter((a) => String(a).includes('*'))).toEqual([]);
  });

  it('scopes every resource, except the X-Ray calls that have no resource-level permissions', () => {
    const unscoped = statements().filter((s) => list(s.Resource).includes('*'));
    expect(unscoped.flatMap((s) => list(s.Action)).every((a) => a.startsWith('xray:'))).toBe(true);
  });

  it('attaches no AWS managed policy to the function roles', () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('uses the table key only through DynamoDB and the messaging key only through SQS when sending', () => {
    const viaService = statements()
      .filter((s) => s.Condition?.StringEquals?.['kms:ViaService'])
      .map((s) => [s.Resource['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, ''), s.Condition.StringEquals['kms:ViaService']]);
    expect(new Set(viaService.map((v) => v.join(' ')))).toEqual(
      new Set(['TablesKey dynamodb.us-east-1.amazonaws.com', 'QueuesKey sqs.us-east-1.amazonaws.com']),
    );
  });
});

describe('observability', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm'));

  it('alarms when any dead-letter queue holds a message', () => {
    const dlqAlarms = alarms().filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    const queues = dlqAlarms.map((a) => a.Properties.Dimensions[0].Value['Fn::GetAtt'][0]);
    expect(queues.every((q) => /DeadLetter/.test(q))).toBe(true);
    expect(dlqAlarms.map((a) => [a.Properties.Threshold, a.Properties.ComparisonOperator])).toEqual(
      Array(3).fill([0, 'GreaterThanThreshold']),
    );
  });

  it('alarms when no report was stored for the configured minutes, counting silence as breaching', () => {
    const stale = alarms().find((a) => a.Properties.MetricName === 'ReportsStored')!.Properties;
    expect(stale).toMatchObject({
      Namespace: 'Placid',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAMES.ingest }],
      EvaluationPeriods: 5,
      Period: 60,
      TreatMissingData: 'breaching',
    });
  });

  it('notifies the encrypted, TLS-only alarm topic from every alarm', () => {
    const [topicId, topic] = Object.entries(template.findResources('AWS::SNS::Topic'))[0];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    for (const alarm of alarms()) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: [{ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }] },
    });
  });

  it('builds one dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });
});
