import 'aws-sdk-client-mock-vitest/extend';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { makeLambdaContext } from '../../lib/local/lambdaContext.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../lib/queue/poison.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { sqsEvent, sqsRecord } from '../queue/sqsRecords.js';
import { body, hypervisorDoc } from './harness.js';

const DLQ = 'https://sqs.us-east-1.amazonaws.com/123456789012/placid-ingest-dlq';
// The Lambda checks skew against the real clock, so these reports are a minute old for real.
const recent = () => new Date(Date.now() - 60_000).toISOString();

describe('the ingest Lambda handler', () => {
  const sqs = mockClient(SQSClient);
  let local: LocalDynamo;
  let store: FleetStore;
  let handler: (event: SQSEvent, context: ReturnType<typeof makeLambdaContext>) => Promise<SQSBatchResponse>;
  const invoke = (event: SQSEvent) => handler(event, makeLambdaContext({ functionName: 'placid-ingest' }));

  beforeAll(async () => {
    local = await startLocalDynamo({ tablePrefix: 'lambda-' });
    store = new FleetStore({ doc: createDocumentClient(local.dynamo), tables: local.tableNames });
    vi.stubEnv('PLACID_DEAD_LETTER_QUEUE_URL', DLQ);
    vi.stubEnv('PLACID_TABLE_HOSTS', local.tableNames.hosts);
    vi.stubEnv('PLACID_TABLE_INSTANCES', local.tableNames.instances);
    vi.stubEnv('PLACID_TABLE_SAMPLES', local.tableNames.samples);
    vi.stubEnv('PLACID_TABLE_LEASES', local.tableNames.leases);
    vi.stubEnv('PLACID_TABLE_LEASES', local.tableNames.leases); // the ingest watermark
    vi.stubEnv('PLACID_DYNAMODB_ENDPOINT', local.endpoint);
    vi.resetModules();
    ({ handler } = await import('../../functions/ingest/handler.js'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await local.close();
  });
  beforeEach(() => {
    sqs.reset();
  });

  it('stores valid records and dead-letters a malformed one with its reason, failing none', async () => {
    // Prepare
    sqs.on(SendMessageCommand).resolves({ MessageId: 'dlq-1' });
    const ok = sqsRecord(
      body([hypervisorDoc({ host: 'lambda-1', nodename: 'lambda-1', reported_at: recent(), samples: [] })]),
      {
        messageId: 'ok',
      },
    );
    const bad = sqsRecord('not json', { messageId: 'bad' });
    // Act
    const response = await invoke(sqsEvent(ok, bad));
    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(await store.getHost('lambda-1')).toBeDefined();
    expect(sqs).toHaveReceivedCommandTimes(SendMessageCommand, 1);
    const sent = sqs.commandCalls(SendMessageCommand)[0].args[0].input;
    expect(sent.QueueUrl).toBe(DLQ);
    expect(sent.MessageBody).toBe('not json');
    expect(sent.MessageAttributes?.[DEAD_LETTER_ATTRIBUTE.error]?.StringValue).toMatch(
      /^message bad: \(root\): is not JSON/,
    );
  });

  it('reports a record as failed when its dead-letter copy cannot be sent, so nothing is lost', async () => {
    // Prepare
    sqs
      .on(SendMessageCommand)
      .rejects(Object.assign(new Error('SQS unavailable'), { name: 'ServiceUnavailable' }));
    // Act
    const response = await invoke(sqsEvent(sqsRecord('{"schema_version": 9}', { messageId: 'poison' })));
    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'poison' }] });
  });
});
