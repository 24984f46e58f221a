import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DETECT_ENV } from '../../functions/detect/env.js';
import { parseTrigger } from '../../lib/detector/trigger.js';
import { DETECT_EVENTS } from '../../lib/infra/detectEvents.js';
import { DETECT_TABLE_ACCESS } from '../../lib/infra/detectStage.js';
import { METRICS, SERVICE_NAMES } from '../../lib/infra/runtimeEnv.js';
import { pascalCase } from '../../lib/infra/tables.js';
import { TABLES } from '../../lib/store/tables.js';
import { synthTemplate } from './synth.js';

type Resource = ReturnType<Template['findResources']>[string];
type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, unknown> };

let template: Template;
beforeAll(() => {
  template = synthTemplate();
});

const list = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);
const entry = (type: string, idPrefix: string): [string, Resource] => {
  const found = Object.entries(template.findResources(type)).filter(([id]) => id.startsWith(idPrefix));
  expect(found, `${type} ${idPrefix}*`).toHaveLength(1);
  return found[0];
};
const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
const statementsOf = (roleIdPrefix: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref.startsWith(roleIdPrefix)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
const refersTo = (value: unknown, id: string) => JSON.stringify(value ?? null).includes(`"${id}"`);
const messagingKey = () => entry('AWS::KMS::Key', 'QueuesKey')[0];

describe('detector function', () => {
  it('runs one reconcile at a time (reserved concurrency 1)', () => {
    const [, fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
  });

  it('is its own Powertools service, so DetectorRuns carries its name', () => {
    const [, fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    expect(fn.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe(SERVICE_NAMES.detect);
  });

  it('gets the plan queue URL under the name functions/detect reads', () => {
    const [, fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    const [planQueue] = entry('AWS::SQS::Queue', 'QueuesPlansQueue');
    expect(fn.Properties.Environment.Variables[DETECT_ENV.planQueueUrl]).toEqual({ Ref: planQueue });
  });

  it('retries a failed asynchronous run twice, then dead-letters it', () => {
    const [, config] = entry('AWS::Lambda::EventInvokeConfig', 'DetectFunction');
    const [dlq] = entry('AWS::SQS::Queue', 'DetectTriggerDeadLetters');
    expect(config.Properties).toMatchObject({
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 1800,
      DestinationConfig: { OnFailure: { Destination: getAtt(dlq) } },
    });
  });
});

describe('detector permissions', () => {
  it.each(Object.entries(DETECT_TABLE_ACCESS))('allows exactly its %s operations', (table, actions) => {
    const [tableId] = entry('AWS::DynamoDB::GlobalTable', `Tables${pascalCase(table)}`);
    const granted = statementsOf('DetectFunctionRole')
      .filter((s) => list(s.Resource).some((r) => refersTo(r, tableId)))
      .flatMap((s) => list(s.Action));
    expect(new Set(granted)).toEqual(new Set(actions.map((a) => `dynamodb:${a}`)));
  });

  it('reads hosts, instances, samples and migrations, and writes only plans, migrations and leases', () => {
    const writers = Object.entries(DETECT_TABLE_ACCESS)
      .filter(([, actions]) => actions.some((a) => /Put|Update|Delete|Write/.test(a)))
      .map(([table]) => table);
    expect(writers.sort()).toEqual(['leases', 'migrations', 'plans']);
    expect(Object.keys(DETECT_TABLE_ACCESS)).toEqual(
      expect.arrayContaining(['hosts', 'instances', 'samples', 'migrations']),
    );
    for (const table of Object.keys(DETECT_TABLE_ACCESS)) expect(TABLES).toHaveProperty(table);
  });

  it('may send to the plan queue and encrypt for it, through SQS only', () => {
    const [planQueue] = entry('AWS::SQS::Queue', 'QueuesPlansQueue');
    const statements = statementsOf('DetectFunctionRole');
    const send = statements.find((s) => refersTo(s.Resource, planQueue));
    const kms = statements.find(
      (s) => list(s.Action).includes('kms:GenerateDataKey') && refersTo(s.Resource, messagingKey()),
    );
    expect(send?.Action).toBe('sqs:SendMessage');
    expect(kms?.Condition).toEqual({ StringEquals: { 'kms:ViaService': 'sqs.us-east-1.amazonaws.com' } });
  });

  it('uses no wildcard action in any detector or scheduler policy', () => {
    const actions = [
      ...statementsOf('DetectFunctionRole'),
      ...statementsOf('DetectTriggersSchedulerRole'),
    ].flatMap((s) => list(s.Action));
    expect(actions.length).toBeGreaterThan(8);
    expect(actions.filter((a) => a.includes('*'))).toEqual([]);
  });
});

describe('detector schedule', () => {
  it('invokes the detector every minute, on the minute (flexible window off)', () => {
    const [, schedule] = entry('AWS::Scheduler::Schedule', 'DetectTriggersSchedule');
    const [fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: { Arn: getAtt(fn) },
    });
  });

  it('retries a tick briefly and dead-letters it', () => {
    const [, schedule] = entry('AWS::Scheduler::Schedule', 'DetectTriggersSchedule');
    const [dlq] = entry('AWS::SQS::Queue', 'DetectTriggerDeadLetters');
    expect(schedule.Properties.Target).toMatchObject({
      RetryPolicy: { MaximumEventAgeInSeconds: 60, MaximumRetryAttempts: 2 },
      DeadLetterConfig: { Arn: getAtt(dlq) },
    });
  });

  it('sends an input the detector takes for a scheduled run, with the tick’s time from Scheduler', () => {
    const [, schedule] = entry('AWS::Scheduler::Schedule', 'DetectTriggersSchedule');
    const sent = schedule.Properties.Target.Input.replace(
      '<aws.scheduler.scheduled-time>',
      '2026-12-02T10:00:00Z',
    );
    expect(schedule.Properties.Target.Input).toContain('<aws.scheduler.scheduled-time>');
    expect(parseTrigger(JSON.parse(sent))).toEqual({
      kind: 'schedule',
      scheduledTime: '2026-12-02T10:00:00Z',
    });
  });

  it.each([
    ['an operator’s request', { source: 'placid', 'detail-type': 'Placid Detect Requested', detail: {} }],
    ['an approval', { source: 'placid', 'detail-type': 'Placid Plan Approved', detail: { plan_id: 'p-1' } }],
    [
      'an alarm',
      {
        source: 'aws.cloudwatch',
        'detail-type': 'CloudWatch Alarm State Change',
        detail: { alarmName: 'placid-detect-steal', state: { value: 'ALARM' } },
      },
    ],
  ])('routes only events the detector accepts: %s', (_what, event) => {
    expect(() => parseTrigger(event)).not.toThrow();
  });

  it('runs under a role only EventBridge Scheduler of this account can assume', () => {
    const [, role] = entry('AWS::IAM::Role', 'DetectTriggersSchedulerRole');
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      }),
    ]);
  });

  it('lets the scheduler invoke only the detector and write only to the dead-letter queue', () => {
    const [fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    const [dlq] = entry('AWS::SQS::Queue', 'DetectTriggerDeadLetters');
    const statements = statementsOf('DetectTriggersSchedulerRole');
    const byAction = (action: string) => statements.filter((s) => list(s.Action).includes(action));
    expect(byAction('lambda:InvokeFunction').every((s) => refersTo(s.Resource, fn))).toBe(true);
    expect(byAction('sqs:SendMessage').map((s) => s.Resource)).toEqual([getAtt(dlq)]);
  });
});

describe('detector rules', () => {
  it('runs the detector for Placid’s own requests and approvals on the default bus', () => {
    const [, rule] = entry('AWS::Events::Rule', 'DetectTriggersOnDemandRule');
    expect(rule.Properties.EventBusName).toBeUndefined();
    expect(rule.Properties.EventPattern).toEqual({
      source: ['placid'],
      'detail-type': ['Placid Detect Requested', 'Placid Plan Approved'],
    });
  });

  it('runs the detector when an alarm named with the prefix goes into ALARM, and only then', () => {
    const [, rule] = entry('AWS::Events::Rule', 'DetectTriggersOnAlarmRule');
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.cloudwatch'],
      'detail-type': ['CloudWatch Alarm State Change'],
      detail: { alarmName: [{ prefix: 'placid-detect-' }], state: { value: ['ALARM'] } },
    });
  });

  it.each(['DetectTriggersOnDemandRule', 'DetectTriggersOnAlarmRule'])(
    '%s retries for an hour and dead-letters what it cannot deliver',
    (ruleId) => {
      const [, rule] = entry('AWS::Events::Rule', ruleId);
      const [dlq] = entry('AWS::SQS::Queue', 'DetectTriggerDeadLetters');
      expect(rule.Properties.Targets).toEqual([
        expect.objectContaining({
          RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 10 },
          DeadLetterConfig: { Arn: getAtt(dlq) },
        }),
      ]);
    },
  );

  it('lets each rule, and nothing else, invoke the detector through EventBridge', () => {
    const [fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission')).filter((p) =>
      refersTo(p.Properties.FunctionName, fn),
    );
    expect(
      permissions.map((p) => [p.Properties.Principal, p.Properties.SourceArn['Fn::GetAtt'][0]]).sort(),
    ).toEqual([
      ['events.amazonaws.com', expect.stringMatching(/^DetectTriggersOnAlarmRule/)],
      ['events.amazonaws.com', expect.stringMatching(/^DetectTriggersOnDemandRule/)],
    ]);
  });

  it('gives operators a policy to put only the two Placid events on the default bus', () => {
    const [, policy] = entry('AWS::IAM::ManagedPolicy', 'DetectTriggersRequesterPolicy');
    const [statement] = policy.Properties.PolicyDocument.Statement;
    expect(statement.Action).toBe('events:PutEvents');
    expect(JSON.stringify(statement.Resource)).toContain(':event-bus/default');
    expect(statement.Condition).toEqual({
      StringEquals: {
        'events:source': DETECT_EVENTS.source,
        'events:detail-type': [DETECT_EVENTS.detectRequested, DETECT_EVENTS.planApproved],
      },
    });
  });
});

describe('detector dead-letter queue', () => {
  it('is encrypted with the messaging key and keeps messages 14 days', () => {
    const [, dlq] = entry('AWS::SQS::Queue', 'DetectTriggerDeadLetters');
    expect(dlq.Properties).toEqual({
      KmsMasterKeyId: getAtt(messagingKey()),
      MessageRetentionPeriod: 14 * 86_400,
    });
  });

  it('lets EventBridge encrypt dead letters with the messaging key, for this account only', () => {
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'events.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
            Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
          }),
        ]),
      },
    });
  });
});

describe('detector alarms and dashboard', () => {
  const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm'));

  it('alarms when no run completed for 5 minutes, counting silence as breaching', () => {
    const silent = alarms().filter((a) => a.Properties.MetricName === METRICS.detectorRuns);
    expect(silent.map((a) => a.Properties)).toEqual([
      expect.objectContaining({
        Namespace: 'Placid',
        Dimensions: [{ Name: 'service', Value: SERVICE_NAMES.detect }],
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 5,
        Threshold: 1,
        ComparisonOperator: 'LessThanThreshold',
        TreatMissingData: 'breaching',
      }),
    ]);
  });

  it('alarms on detector errors but not on throttles, which reserved concurrency 1 makes normal', () => {
    const [fn] = entry('AWS::Lambda::Function', 'DetectFunction');
    const onDetector = alarms().filter((a) => refersTo(a.Properties.Dimensions, fn));
    expect(onDetector.map((a) => a.Properties.MetricName)).toEqual(['Errors']);
    expect(onDetector[0].Properties).toMatchObject({
      Period: 300,
      Threshold: 0,
      TreatMissingData: 'notBreaching',
    });
  });

  it('graphs the detector’s runs, plans, queued migrations and suffering VMs', () => {
    const [, dashboard] = entry('AWS::CloudWatch::Dashboard', 'ObservabilityDashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const name of [METRICS.detectorRuns, ...METRICS.detector]) {
      expect(body).toContain(`\\"${name}\\",\\"service\\",\\"${SERVICE_NAMES.detect}\\"`);
    }
  });
});
