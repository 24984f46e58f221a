import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/infra/config.js';
import { METRICS, SERVICE_NAMES } from '../../lib/infra/runtimeEnv.js';
import { WORKFLOW_SERVICE_NAMES } from '../../lib/infra/workflow.js';
import { STATE } from '../../lib/infra/workflowDefinition.js';
import { synthTemplate } from './synth.js';

let template: Template;
let functions: [string, ReturnType<Template['findResources']>[string]][];
beforeAll(() => {
  template = synthTemplate();
  functions = Object.entries(template.findResources('AWS::Lambda::Function'));
});

/** Actions IAM cannot scope to a resource (X-Ray segments; Step Functions log delivery). */
const UNSCOPABLE = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
]);

const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|PRIVATE|API_?KEY/i;
// Access keys, PEM blocks, and whole values that are an opaque blob (a token or password).
const SECRET_VALUE = /(AKIA|ASIA)[0-9A-Z]{16}|-----BEGIN|^[A-Za-z0-9+/=_-]{32,}$/;

describe('functions', () => {
  it('has the ingest and both schedule functions, each its own Powertools service', () => {
    const services = functions.map(([, f]) => f.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME);
    expect(services).toEqual(expect.arrayContaining(Object.values(SERVICE_NAMES)));
    expect(services).toHaveLength(new Set(services).size);
  });

  it('runs every function on Node.js 24, arm64, with active tracing', () => {
    for (const [, { Properties: p }] of functions) {
      expect([p.Runtime, p.Architectures, p.TracingConfig]).toEqual([
        'nodejs24.x',
        ['arm64'],
        { Mode: 'Active' },
      ]);
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

  it('puts no secret into any environment variable, only the names of Secrets Manager secrets', () => {
    const { novaSecretName, kubernetesSecretName, consulSecretName } = parseConfig({});
    const secretNames = new Set([novaSecretName, kubernetesSecretName, consulSecretName]);
    for (const [id, { Properties: p }] of functions) {
      for (const [name, value] of Object.entries(p.Environment.Variables as Record<string, unknown>)) {
        if (SECRET_NAME.test(name)) expect(secretNames, `${id} ${name}`).toContain(value);
        if (typeof value === 'string') expect(value, `${id} ${name}`).not.toMatch(SECRET_VALUE);
      }
    }
  });

  it('reports partial batch failures from both queue consumers', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.length).toBeGreaterThanOrEqual(2);
    for (const m of mappings) expect(m.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it.each([
    ['IngestFunction', 10],
    ['ScheduleQueueFunction', 5],
  ])('caps how many %s consumers the queue starts', (fn, max) => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    const mine = mappings.filter((m) => m.Properties.FunctionName.Ref.startsWith(fn));
    expect(mine.map((m) => m.Properties.ScalingConfig.MaximumConcurrency)).toEqual([max]);
  });

  it('exposes the schedule endpoint only behind IAM auth, and nothing anonymously', () => {
    const urls = Object.values(template.findResources('AWS::Lambda::Url'));
    expect(urls.map((u) => [u.Properties.TargetFunctionArn['Fn::GetAtt'][0], u.Properties.AuthType])).toEqual(
      [[expect.stringMatching(/^ScheduleHttpFunction/), 'AWS_IAM']],
    );
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission'));
    expect(
      permissions.filter((p) => p.Properties.Principal === '*' || p.Properties.FunctionUrlAuthType),
    ).toEqual([]);
  });
});

describe('IAM', () => {
  const statements = () =>
    [
      ...Object.values(template.findResources('AWS::IAM::Policy')),
      ...Object.values(template.findResources('AWS::IAM::ManagedPolicy')),
    ].flatMap((p) => p.Properties.PolicyDocument.Statement as (typeof p)[]);
  const list = (x: unknown) => (Array.isArray(x) ? x : [x]);

  it('allows no wildcard action', () => {
    const actions = statements().flatMap((s) => list(s.Action));
    expect(actions.length).toBeGreaterThan(20);
    expect(actions.filter((a) => String(a).includes('*'))).toEqual([]);
  });

  it('scopes every resource, except for actions that have no resource-level permissions', () => {
    const unscoped = statements().filter((s) => list(s.Resource).includes('*'));
    expect(unscoped.length).toBeGreaterThan(0);
    expect(unscoped.flatMap((s) => list(s.Action)).filter((a) => !UNSCOPABLE.has(a))).toEqual([]);
  });

  it('attaches no managed policy to the function roles', () => {
    const roles = Object.values(template.findResources('AWS::IAM::Role'));
    const functionRoles = roles.filter((r) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    expect(functionRoles.length).toBeGreaterThan(0);
    for (const role of functionRoles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it.each([
    ['TablesKey', ['kms:ViaService', 'dynamodb.us-east-1.amazonaws.com']],
    ['QueuesKey', ['kms:ViaService', 'sqs.us-east-1.amazonaws.com']],
  ])('lets functions encrypt with %s only through its service', (key, condition) => {
    const encrypting = statements().filter(
      (s) => list(s.Action).includes('kms:GenerateDataKey') && s.Resource['Fn::GetAtt']?.[0].startsWith(key),
    );
    expect(encrypting.length).toBeGreaterThan(0);
    for (const s of encrypting) expect(Object.entries(s.Condition.StringEquals)).toEqual([condition]);
  });
});

describe('observability', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm'));

  it('alarms when any dead-letter queue holds a message', () => {
    const dlqAlarms = alarms().filter(
      (a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible',
    );
    const watched = dlqAlarms.map((a) => a.Properties.Dimensions[0].Value['Fn::GetAtt'][0]).sort();
    const deadLetters = Object.keys(template.findResources('AWS::SQS::Queue')).filter((id) =>
      /DeadLetter/.test(id),
    );
    expect(watched).toEqual(deadLetters.sort());
    for (const a of dlqAlarms)
      expect([a.Properties.Threshold, a.Properties.ComparisonOperator]).toEqual([0, 'GreaterThanThreshold']);
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
      PolicyDocument: {
        Statement: [{ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }],
      },
    });
  });

  it('builds one dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  /** Lambda metric alarms by the function they watch (its logical id prefix). */
  const lambdaAlarms = (metricName: string) =>
    alarms()
      .filter((a) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === metricName)
      .map((a) => a.Properties.Dimensions[0].Value.Ref as string);

  it.each([
    ['Errors', ['WorkflowStepsFunction']],
    ['Throttles', ['DetectFunction']],
  ])('alarms on %s of every function but %j', (metricName, exempt) => {
    const watched = lambdaAlarms(metricName);
    const expected = functions.map(([id]) => id).filter((id) => !exempt.some((e) => id.startsWith(e)));
    expect(watched.sort()).toEqual(expected.sort());
    for (const a of alarms().filter((x) => x.Properties.MetricName === metricName)) {
      expect(a.Properties).toMatchObject({
        Statistic: 'Sum',
        Period: 300,
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it.each([
    ['ExecutionsFailed', 'MigrationsFailed'],
    [METRICS.rolledBack, 'MigrationsRolledBack'],
  ])('alarms on the first %s of a minute (%s)', (metricName, alarmId) => {
    const [, alarm] = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
      id.startsWith(`Observability${alarmId}`),
    )!;
    expect(alarm.Properties).toMatchObject({
      MetricName: metricName,
      Statistic: 'Sum',
      Period: 60,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('alarms on migration executions that timed out or were aborted', () => {
    const [, math] = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(([id]) =>
      id.startsWith('ObservabilityMigrationsTimedOutOrAborted'),
    )!;
    const used = math!.Properties.Metrics.flatMap((m: { MetricStat?: { Metric: { MetricName: string } } }) =>
      m.MetricStat ? [m.MetricStat.Metric.MetricName] : [],
    );
    expect(used.sort()).toEqual(['ExecutionsAborted', 'ExecutionsTimedOut']);
  });

  it.each([
    [METRICS.rolledBack, 'TaskStateEntered', STATE.rollback],
    [METRICS.deferred, 'SucceedStateEntered', STATE.deferred],
  ])('counts %s from the execution log (%s %s)', (metricName, eventType, state) => {
    const filters = Object.values(template.findResources('AWS::Logs::MetricFilter'));
    const filter = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === metricName)!;
    expect(filter.Properties.FilterPattern).toBe(
      `{ ($.type = "${eventType}") && ($.details.name = "${state}") }`,
    );
    expect(filter.Properties.LogGroupName.Ref).toMatch(/^WorkflowExecutionLogs/);
    expect(filter.Properties.MetricTransformations[0]).toMatchObject({
      MetricNamespace: 'Placid',
      MetricValue: '1',
    });
  });

  it('graphs migrations started, succeeded, failed, rolled back, deferred and the bytes moved', () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const name of [
      'ExecutionsStarted',
      'ExecutionsSucceeded',
      'ExecutionsFailed',
      METRICS.rolledBack,
      METRICS.deferred,
    ]) {
      expect(body).toContain(`\\"${name}\\"`);
    }
    expect(body).toContain(`\\"${METRICS.bytesMoved}\\",\\"service\\",\\"${WORKFLOW_SERVICE_NAMES.steps}\\"`);
  });
});
