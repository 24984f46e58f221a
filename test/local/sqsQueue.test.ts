import { SqsSchema } from '@aws-lambda-powertools/parser/schemas/sqs';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../../lib/local/sqsMd5.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import { ConfigError } from '../../lib/model/errors.js';
import { QueueSendError, QueueVisibilityError } from '../../lib/queue/errors.js';

const START = Date.UTC(2026, 0, 1);

function queues(maxReceiveCount = 3) {
  const clock = new ManualClock(START);
  const dlq = new LocalSqsQueue({ name: 'placid-ingest-dlq', clock });
  const queue = new LocalSqsQueue({
    name: 'placid-ingest',
    clock,
    visibilityTimeoutSeconds: 30,
    redrive: { deadLetterQueue: dlq, maxReceiveCount },
  });
  return { clock, dlq, queue };
}

/** A queue whose one message was received, became visible again and was received a second time. */
async function receivedTwice() {
  const { clock, queue } = queues();
  await queue.send('m');
  const first = queue.receive(1)[0].receiptHandle;
  clock.advance(30_000);
  const second = queue.receive(1)[0].receiptHandle;
  return { queue, first, second };
}

describe('LocalSqsQueue records', () => {
  it('delivers records the Powertools SQS schema accepts', async () => {
    // Prepare
    const { queue } = queues();
    await queue.send('{"a":1}', { correlation_id: 'c-1' });
    await queue.send('plain');
    // Act
    const Records = queue.receive(10);
    // Assess
    expect(SqsSchema.safeParse({ Records }).success).toBe(true);
  });

  it('fills every field as SQS and Lambda do', async () => {
    const { clock, queue } = queues();
    const { messageId } = await queue.send('hello', { correlation_id: 'c-1' });
    clock.advance(1_000);
    const [record] = queue.receive(1);
    expect(record).toEqual({
      messageId,
      receiptHandle: expect.any(String),
      body: 'hello',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(START),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: String(START + 1_000),
      },
      messageAttributes: {
        correlation_id: {
          stringValue: 'c-1',
          stringListValues: [],
          binaryListValues: [],
          dataType: 'String',
        },
      },
      md5OfBody: md5Hex('hello'),
      md5OfMessageAttributes: expect.stringMatching(/^[0-9a-f]{32}$/),
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:placid-ingest',
      awsRegion: 'us-east-1',
    });
  });
});

describe('LocalSqsQueue receive and delete', () => {
  it('receives at most the requested number, oldest first', async () => {
    const { queue } = queues();
    await queue.sendBatch(['1', '2', '3', '4', '5']);
    expect(queue.receive(3).map((r) => r.body)).toEqual(['1', '2', '3']);
    expect(queue.receive(3).map((r) => r.body)).toEqual(['4', '5']);
  });

  it('hides a received message until its visibility timeout has passed', async () => {
    const { clock, queue } = queues();
    await queue.send('m');
    queue.receive(1);
    clock.advance(29_999);
    expect(queue.receive(1)).toEqual([]);
    clock.advance(1);
    expect(queue.receive(1).map((r) => r.body)).toEqual(['m']);
  });

  it('counts every receive in ApproximateReceiveCount', async () => {
    const { clock, queue } = queues(10);
    await queue.send('m');
    const counts: string[] = [];
    for (let i = 0; i < 3; i++) {
      counts.push(queue.receive(1)[0].attributes.ApproximateReceiveCount);
      clock.advance(30_000);
    }
    expect(counts).toEqual(['1', '2', '3']);
  });

  it('deletes a message only with its latest receipt handle', async () => {
    const { queue, first, second } = await receivedTwice();
    expect(queue.delete(first)).toBe(false);
    expect(queue.delete(second)).toBe(true);
    expect(queue.size).toBe(0);
  });

  it('moves a message to the dead-letter queue when received again after maxReceiveCount receives', async () => {
    // Prepare
    const { clock, queue, dlq } = queues(2);
    const { messageId } = await queue.send('poison', { correlation_id: 'c' });
    queue.receive(1);
    clock.advance(30_000);
    queue.receive(1);
    clock.advance(30_000);
    // Act
    const third = queue.receive(1);
    // Assess
    expect(third).toEqual([]);
    expect(queue.size).toBe(0);
    expect(queue.stats().deadLettered).toBe(1);
    expect(dlq.messages()).toEqual([
      expect.objectContaining({
        messageId,
        body: 'poison',
        attributes: { correlation_id: 'c' },
        sentTimestamp: START,
        deadLetterSourceArn: queue.arn,
      }),
    ]);
    expect(dlq.receive(1)[0].attributes.DeadLetterQueueSourceArn).toBe(queue.arn);
  });
});

describe('LocalSqsQueue changeVisibility', () => {
  it('brings a received message back after the new timeout, counted from the call', async () => {
    // Prepare: the queue's own timeout is 30 s
    const { clock, queue } = queues();
    await queue.send('m');
    const [record] = queue.receive(1);
    clock.advance(2_000);
    // Act
    await queue.changeVisibility(record.receiptHandle, 5);
    // Assess
    clock.advance(4_999);
    expect(queue.receive(1)).toEqual([]);
    clock.advance(1);
    expect(queue.receive(1).map((r) => r.body)).toEqual(['m']);
  });

  it('makes a message visible at once with 0, and can also extend past the queue timeout', async () => {
    const { clock, queue } = queues();
    await queue.sendBatch(['now', 'later']);
    const [now, later] = queue.receive(2);
    await queue.changeVisibility(now.receiptHandle, 0);
    await queue.changeVisibility(later.receiptHandle, 120);
    const again = queue.receive(2);
    expect(again.map((r) => r.body)).toEqual(['now']);
    queue.delete(again[0].receiptHandle);
    clock.advance(119_999);
    expect(queue.receive(2)).toEqual([]);
    clock.advance(1);
    expect(queue.receive(2).map((r) => r.body)).toEqual(['later']);
  });

  it.each([
    [-1, 'negative'],
    [43_201, 'over 12 hours'],
    [1.5, 'fractional'],
  ])('refuses a timeout of %s s (%s) as InvalidParameterValue, naming the field', async (seconds) => {
    const { queue } = queues();
    await queue.send('m');
    const [record] = queue.receive(1);
    const change = queue.changeVisibility(record.receiptHandle, seconds);
    await expect(change).rejects.toThrow(QueueVisibilityError);
    await expect(change).rejects.toMatchObject({ code: 'InvalidParameterValue' });
    await expect(change).rejects.toThrow(/VisibilityTimeout must be a whole number of seconds 0\.\.43200/);
  });

  it('refuses to keep a message in flight over 12 hours after its receive', async () => {
    const { clock, queue } = queues();
    await queue.send('m');
    const [record] = queue.receive(1);
    await queue.changeVisibility(record.receiptHandle, 43_200);
    clock.advance(60_000);
    await expect(queue.changeVisibility(record.receiptHandle, 43_200)).rejects.toMatchObject({
      code: 'InvalidParameterValue',
    });
    await queue.changeVisibility(record.receiptHandle, 43_140);
  });

  it('accepts only the latest receipt handle of a message', async () => {
    const { queue, first, second } = await receivedTwice();
    await expect(queue.changeVisibility(first, 0)).rejects.toMatchObject({ code: 'ReceiptHandleIsInvalid' });
    await expect(queue.changeVisibility('not-a-handle', 0)).rejects.toMatchObject({
      code: 'ReceiptHandleIsInvalid',
    });
    await queue.changeVisibility(second, 0);
    expect(queue.peek(1).map((m) => m.body)).toEqual(['m']);
  });

  it('refuses a message whose visibility timeout already ran out (not in flight)', async () => {
    const { clock, queue } = queues();
    await queue.send('m');
    const [record] = queue.receive(1);
    clock.advance(30_000);
    await expect(queue.changeVisibility(record.receiptHandle, 10)).rejects.toMatchObject({
      code: 'MessageNotInflight',
    });
  });

  it('refuses a deleted message', async () => {
    const { queue } = queues();
    await queue.send('m');
    const [record] = queue.receive(1);
    queue.delete(record.receiptHandle);
    await expect(queue.changeVisibility(record.receiptHandle, 10)).rejects.toMatchObject({
      code: 'ReceiptHandleIsInvalid',
    });
  });
});

describe('LocalSqsQueue send', () => {
  it('refuses a message SQS would refuse, naming the queue and the problem', async () => {
    const { queue } = queues();
    const send = queue.send('x'.repeat(262_145));
    await expect(send).rejects.toBeInstanceOf(QueueSendError);
    await expect(send).rejects.toThrow(/^placid-ingest: message is 262145 bytes; the limit is 262144$/);
  });

  it('reports refused entries of a batch and enqueues the rest', async () => {
    const { queue } = queues();
    const result = await queue.sendBatch(['ok', '', { body: 'also ok', attributes: { k: 'v' } }]);
    expect(result.sent.map((s) => s.index)).toEqual([0, 2]);
    expect(result.failed).toEqual([expect.objectContaining({ index: 1, code: 'InvalidParameterValue' })]);
    expect(queue.stats().sent).toBe(2);
  });
});

describe('LocalSqsQueue inspection', () => {
  it('peeks at visible messages without receiving them', async () => {
    const { queue } = queues();
    await queue.sendBatch(['a', 'b']);
    queue.receive(1);
    expect(queue.peek().map((m) => [m.body, m.receiveCount])).toEqual([['b', 0]]);
    expect(queue.messages().map((m) => m.body)).toEqual(['a', 'b']);
  });

  it('tells when the next message becomes visible', async () => {
    const { queue } = queues();
    expect(queue.nextVisibleAt()).toBeUndefined();
    await queue.send('a');
    queue.receive(1);
    expect(queue.nextVisibleAt()).toBe(START + 30_000);
  });
});

describe('LocalSqsQueue options', () => {
  it.each([
    ['a bad name', { name: 'no spaces' }],
    ['a negative visibility timeout', { name: 'q1', visibilityTimeoutSeconds: -1 }],
    ['a visibility timeout over 12 hours', { name: 'q1', visibilityTimeoutSeconds: 43_201 }],
    [
      'a zero maxReceiveCount',
      { name: 'q1', redrive: { deadLetterQueue: new LocalSqsQueue({ name: 'd1' }), maxReceiveCount: 0 } },
    ],
  ])('refuses %s', (_name, options) => {
    expect(() => new LocalSqsQueue(options)).toThrow(ConfigError);
  });

  it('refuses to drain without a handler', async () => {
    await expect(new LocalSqsQueue({ name: 'q1' }).drain()).rejects.toThrow(/has no handler attached/);
  });
});
