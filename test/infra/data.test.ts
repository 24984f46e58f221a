import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { pascalCase } from '../../lib/infra/tables.js';
import { type KeyAttribute, LOGICAL_TABLES, TABLES, type TableDefinition } from '../../lib/store/tables.js';
import { synthTemplate } from './synth.js';

/** Resources of one type by logical id, as `Template.findResources` returns them. */
type Resources = ReturnType<Template['findResources']>;

let template: Template;
let tables: Resources;
let queues: Resources;
beforeAll(() => {
  template = synthTemplate();
  tables = template.findResources('AWS::DynamoDB::GlobalTable');
  queues = template.findResources('AWS::SQS::Queue');
});

const keySchema = (pk: KeyAttribute, sk?: KeyAttribute) => [
  { AttributeName: pk.name, KeyType: 'HASH' },
  ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' }] : []),
];
const tableResource = (name: string): Resources[string] => {
  const [, resource] = Object.entries(tables).find(([id]) => id.startsWith(`Tables${pascalCase(name)}`))!;
  return resource;
};
const tableCases = LOGICAL_TABLES.map((name) => [name, TABLES[name] as TableDefinition] as const);

describe('tables (built from lib/store/tables.ts)', () => {
  it('creates exactly one table per definition', () => {
    expect(Object.keys(tables)).toHaveLength(LOGICAL_TABLES.length);
  });

  it.each(tableCases)('%s has the defined primary key', (name, def) => {
    expect(tableResource(name).Properties.KeySchema).toEqual(keySchema(def.partitionKey, def.sortKey));
  });

  it.each(tableCases)('%s has the defined global secondary indexes', (name, def) => {
    const expected = def.globalSecondaryIndexes.map((gsi) => ({
      IndexName: gsi.indexName,
      KeySchema: keySchema(gsi.partitionKey, gsi.sortKey),
      Projection: { ProjectionType: gsi.projection.type },
    }));
    expect(tableResource(name).Properties.GlobalSecondaryIndexes ?? []).toEqual(expected);
  });

  it.each(tableCases)('%s declares every key attribute with its type', (name, def) => {
    const keys = [
      def.partitionKey,
      def.sortKey,
      ...def.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
    ];
    const expected = keys
      .filter((k) => k !== undefined)
      .map((k) => ({ AttributeName: k.name, AttributeType: k.type }));
    expect(tableResource(name).Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(expected.map((e) => expect.objectContaining(e))),
    );
  });

  it.each(tableCases)('%s expires items by its TTL attribute, if it has one', (name, def) => {
    const ttl = tableResource(name).Properties.TimeToLiveSpecification;
    expect(ttl).toEqual(
      def.timeToLiveAttribute ? { AttributeName: def.timeToLiveAttribute, Enabled: true } : undefined,
    );
  });

  it.each(tableCases)('%s bills on demand, encrypts with the tables key and keeps backups', (name) => {
    const { Properties, DeletionPolicy, UpdateReplacePolicy } = tableResource(name);
    expect(Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(Properties.Replicas).toEqual([
      expect.objectContaining({
        SSESpecification: { KMSMasterKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^TablesKey/), 'Arn'] } },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    ]);
    expect([DeletionPolicy, UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });

  it('keeps every customer-managed key, with rotation on', () => {
    const keys = Object.values(template.findResources('AWS::KMS::Key'));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys)
      expect([key.Properties.EnableKeyRotation, key.DeletionPolicy]).toEqual([true, 'Retain']);
  });
});

describe('queues', () => {
  const work = () => Object.entries(queues).filter(([id]) => /Queue[0-9A-F]{8}$/.test(id));
  const deadLetters = () => Object.keys(queues).filter((id) => /DeadLetter[0-9A-F]{8}$/.test(id));
  /** Queues that asynchronous deliveries (rules, schedules, Lambda on-failure) use as dead-letter queue. */
  const eventTargetDeadLetters = () => {
    const arns = [
      ...Object.values(template.findResources('AWS::Events::Rule')).flatMap((r) =>
        r.Properties.Targets.map((t: { DeadLetterConfig?: { Arn: unknown } }) => t.DeadLetterConfig?.Arn),
      ),
      ...Object.values(template.findResources('AWS::Scheduler::Schedule')).map(
        (r) => r.Properties.Target.DeadLetterConfig?.Arn,
      ),
      ...Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')).map(
        (r) => r.Properties.DestinationConfig?.OnFailure?.Destination,
      ),
    ];
    return arns.map((arn) => (arn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0]);
  };

  it('pairs every work queue (ingest, schedule, plans among them) with a dead-letter queue of its own', () => {
    const targets = work().map(([, q]) => q.Properties.RedrivePolicy?.deadLetterTargetArn['Fn::GetAtt'][0]);
    expect(work().map(([id]) => id)).toEqual(
      expect.arrayContaining(
        ['Ingest', 'ScheduleRequests', 'ScheduleReplies', 'Plans'].map((n) =>
          expect.stringMatching(`^Queues${n}Queue`),
        ),
      ),
    );
    expect(targets).toHaveLength(new Set(targets).size);
    expect(new Set([...targets, ...eventTargetDeadLetters()])).toEqual(new Set(deadLetters()));
  });

  it('moves a message to the dead-letter queue after the configured number of receives', () => {
    for (const [id, q] of work().filter(([id]) => !id.startsWith('QueuesPlans')))
      expect(q.Properties.RedrivePolicy.maxReceiveCount, id).toBe(5);
  });

  it("keeps a plan message waiting for a slot past its plan's TTL: 28 waits cover 30 min, + 1 to expire, + 5", () => {
    // 10 × 30 s + 10 × 60 s + 8 × 120 s ≥ 30 min (lib/workflow/planQueueRetry.ts)
    const [plans] = work().filter(([id]) => id.startsWith('QueuesPlans'));
    expect(plans?.[1].Properties.VisibilityTimeout).toBe(360);
    expect(plans?.[1].Properties.RedrivePolicy.maxReceiveCount).toBe(28 + 1 + 5);
  });

  it('lets the plan starter shorten the visibility of the plan queue’s messages, and tells it the URL', () => {
    const [starterId, starter] = Object.entries(template.findResources('AWS::Lambda::Function')).find(
      ([id]) => id.startsWith('WorkflowPlanStarterFunction'),
    )!;
    const [plansId] = work().find(([id]) => /^QueuesPlansQueue[0-9A-F]{8}$/.test(id))!;
    const roleId = starter.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    const change = statements.filter(
      (s) =>
        [s.Action].flat().includes('sqs:ChangeMessageVisibility') &&
        JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [plansId, 'Arn'] }),
    );
    expect(change, starterId).toHaveLength(1);
    expect(starter.Properties.Environment.Variables.PLACID_PLAN_QUEUE_URL).toEqual({ Ref: plansId });
  });

  it('sizes the plan queue from placid:rebalance plan_ttl_minutes', () => {
    const own = synthTemplate({ context: { 'placid:rebalance': { plan_ttl_minutes: 120 } } });
    const [plans] = Object.entries(own.findResources('AWS::SQS::Queue')).filter(([id]) =>
      /^QueuesPlansQueue[0-9A-F]{8}$/.test(id),
    );
    // 40 waits cover 75 min (…, 10 × 240 s), then 8 × 360 s: 48 waits ≥ 120 min
    expect(plans?.[1].Properties.RedrivePolicy.maxReceiveCount).toBe(48 + 1 + 5);
  });

  it('encrypts every queue with the messaging key', () => {
    for (const queue of Object.values(queues)) {
      expect(queue.Properties.KmsMasterKeyId).toEqual({
        'Fn::GetAtt': [expect.stringMatching(/^QueuesKey/), 'Arn'],
      });
    }
  });

  it('denies every queue request that does not use TLS', () => {
    for (const id of Object.keys(queues)) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('keeps dead letters for 14 days', () => {
    for (const id of deadLetters()) expect(queues[id].Properties.MessageRetentionPeriod).toBe(14 * 86_400);
  });

  it('hides a received message for at least six times its consumer timeout plus the batching window', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(mappings.length).toBeGreaterThanOrEqual(2);
    for (const { Properties: m } of mappings) {
      const queue = queues[m.EventSourceArn['Fn::GetAtt'][0]];
      const timeout = functions[m.FunctionName.Ref].Properties.Timeout;
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
        6 * timeout + (m.MaximumBatchingWindowInSeconds ?? 0),
      );
    }
  });
});
