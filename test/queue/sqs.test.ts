import {
  ChangeMessageVisibilityCommand,
  ReceiptHandleIsInvalid,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { beforeEach, describe, expect, it } from 'vitest';
import { QueueSendError, QueueVisibilityError } from '../../lib/queue/errors.js';
import { SqsQueue } from '../../lib/queue/sqs.js';

const URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest';
const sqs = mockClient(SQSClient);
const sleeps: number[] = [];
const retry = { sleep: async (ms: number) => void sleeps.push(ms), random: () => 0.5 };
const queue = () => new SqsQueue(new SQSClient({ region: 'eu-west-1' }), URL, { retry });

/** Accepts every entry, with a message id derived from the entry id. */
function acceptAll(input: { Entries?: SendMessageBatchRequestEntry[] }) {
  return {
    Successful: (input.Entries ?? []).map((e) => ({
      Id: e.Id,
      MessageId: `m-${e.Id}`,
      MD5OfMessageBody: '',
    })),
    Failed: [],
  };
}

beforeEach(() => {
  sqs.reset();
  sleeps.length = 0;
});

describe('SqsQueue.send', () => {
  it('sends the body with string attributes and returns the message id', async () => {
    // Prepare
    sqs.on(SendMessageCommand).resolves({ MessageId: 'abc' });
    // Act
    const result = await queue().send('{"a":1}', { correlation_id: 'c-1' });
    // Assess
    expect(result).toEqual({ messageId: 'abc' });
    expect(sqs).toHaveReceivedCommandWith(SendMessageCommand, {
      QueueUrl: URL,
      MessageBody: '{"a":1}',
      MessageAttributes: { correlation_id: { DataType: 'String', StringValue: 'c-1' } },
    });
  });

  it('refuses a message over 256 KiB without calling SQS', async () => {
    const send = queue().send('x'.repeat(262_145));
    await expect(send).rejects.toThrow(QueueSendError);
    await expect(send).rejects.toMatchObject({ code: 'MessageTooLong', retryable: false });
    expect(sqs).not.toHaveReceivedCommand(SendMessageCommand);
  });
});

describe('SqsQueue.sendBatch', () => {
  it('sends 25 messages as three SendMessageBatch calls of 10, 10 and 5', async () => {
    // Prepare
    sqs.on(SendMessageBatchCommand).callsFake(acceptAll);
    const bodies = Array.from({ length: 25 }, (_, i) => `body-${i}`);
    // Act
    const result = await queue().sendBatch(bodies);
    // Assess
    expect(sqs).toHaveReceivedCommandTimes(SendMessageBatchCommand, 3);
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries?.length);
    expect(calls).toEqual([10, 10, 5]);
    expect(result.failed).toEqual([]);
    expect(result.sent.map((s) => s.messageId)).toEqual(bodies.map((_, i) => `m-${i}`));
  });

  it('splits calls by summed size as well as by count', async () => {
    sqs.on(SendMessageBatchCommand).callsFake(acceptAll);
    await queue().sendBatch(Array.from({ length: 3 }, () => 'x'.repeat(100_000)));
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input.Entries?.length);
    expect(calls).toEqual([2, 1]);
  });

  it('retries only the entries SQS failed on its side, after a backoff', async () => {
    // Prepare: entry 1 fails once (server side), then everything succeeds
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [
          { Id: '0', MessageId: 'm-0', MD5OfMessageBody: '' },
          { Id: '2', MessageId: 'm-2', MD5OfMessageBody: '' },
        ],
        Failed: [{ Id: '1', Code: 'InternalError', SenderFault: false }],
      })
      .callsFake(acceptAll);
    // Act
    const result = await queue().sendBatch(['a', 'b', 'c']);
    // Assess
    expect(sqs.commandCalls(SendMessageBatchCommand)[1].args[0].input.Entries).toEqual([
      expect.objectContaining({ Id: '1', MessageBody: 'b' }),
    ]);
    expect(result.sent.map((s) => [s.index, s.messageId])).toEqual([
      [0, 'm-0'],
      [1, 'm-1'],
      [2, 'm-2'],
    ]);
    expect(sleeps).toEqual([25]);
  });

  it('reports a sender-fault entry without retrying it', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: '0', MessageId: 'm-0', MD5OfMessageBody: '' }],
      Failed: [{ Id: '1', Code: 'InvalidParameterValue', Message: 'bad', SenderFault: true }],
    });
    const result = await queue().sendBatch(['a', 'b']);
    expect(sqs).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1);
    expect(result.failed).toEqual([
      { index: 1, code: 'InvalidParameterValue', message: 'bad', retryable: false },
    ]);
  });

  it('reports entries that still fail after every attempt', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'ServiceUnavailable', SenderFault: false }] });
    const result = await queue().sendBatch(['a']);
    expect(sqs).toHaveReceivedCommandTimes(SendMessageBatchCommand, 4);
    expect(result.failed).toEqual([expect.objectContaining({ index: 0, code: 'ServiceUnavailable' })]);
    expect(result.sent).toEqual([]);
  });

  it('retries entries that SQS neither accepted nor refused', async () => {
    sqs.on(SendMessageBatchCommand).resolvesOnce({ Successful: [], Failed: [] }).callsFake(acceptAll);
    const result = await queue().sendBatch(['a']);
    expect(sqs).toHaveReceivedCommandTimes(SendMessageBatchCommand, 2);
    expect(result.sent).toEqual([{ index: 0, messageId: 'm-0' }]);
  });

  it('reports every entry of a call refused as a client error, without retrying', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .rejects(Object.assign(new Error('denied'), { name: 'AccessDenied', $fault: 'client' }));
    const result = await queue().sendBatch(['a', 'b']);
    expect(sqs).toHaveReceivedCommandTimes(SendMessageBatchCommand, 1);
    expect(result.failed.map((f) => [f.index, f.code, f.retryable])).toEqual([
      [0, 'AccessDenied', false],
      [1, 'AccessDenied', false],
    ]);
  });

  it('refuses oversized and invalid entries up front and sends the rest', async () => {
    sqs.on(SendMessageBatchCommand).callsFake(acceptAll);
    const result = await queue().sendBatch(['ok', 'x'.repeat(262_145), { body: 'bad\u0000' }]);
    expect(result.sent).toEqual([{ index: 0, messageId: 'm-0' }]);
    expect(result.failed.map((f) => [f.index, f.code])).toEqual([
      [1, 'MessageTooLong'],
      [2, 'InvalidMessageContents'],
    ]);
  });
});

describe('SqsQueue.fromUrl', () => {
  it('creates a client in the region named by the queue URL', async () => {
    const q = SqsQueue.fromUrl(URL);
    const region = await (q as unknown as { client: SQSClient }).client.config.region();
    expect(region).toBe('eu-west-1');
  });
});

describe('SqsQueue.changeVisibility', () => {
  it('calls ChangeMessageVisibility with the receipt handle and the timeout', async () => {
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    await queue().changeVisibility('handle-1', 30);
    expect(sqs).toHaveReceivedCommandWith(ChangeMessageVisibilityCommand, {
      QueueUrl: URL,
      ReceiptHandle: 'handle-1',
      VisibilityTimeout: 30,
    });
  });

  it('refuses a timeout outside 0..43200 s without calling SQS', async () => {
    const change = queue().changeVisibility('handle-1', 43_201);
    await expect(change).rejects.toThrow(QueueVisibilityError);
    await expect(change).rejects.toThrow(/VisibilityTimeout must be a whole number of seconds/);
    expect(sqs).not.toHaveReceivedCommand(ChangeMessageVisibilityCommand);
  });

  it("passes SQS's refusal on with its error code", async () => {
    sqs
      .on(ChangeMessageVisibilityCommand)
      .rejects(new ReceiptHandleIsInvalid({ message: 'The receipt handle is not valid', $metadata: {} }));
    await expect(queue().changeVisibility('old', 10)).rejects.toMatchObject({
      name: 'QueueVisibilityError',
      code: 'ReceiptHandleIsInvalid',
    });
  });
});
