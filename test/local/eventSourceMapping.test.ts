import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import { ConfigError } from '../../lib/model/errors.js';

function setup(maxReceiveCount = 3) {
  const clock = new ManualClock();
  const dlq = new LocalSqsQueue({ name: 'dlq', clock });
  const queue = new LocalSqsQueue({
    name: 'work',
    clock,
    visibilityTimeoutSeconds: 30,
    redrive: { deadLetterQueue: dlq, maxReceiveCount },
  });
  return { clock, dlq, queue };
}

/** A handler that records the bodies of each batch it is given and answers with `reply`. */
function recorder(reply: (event: SQSEvent, call: number) => SQSBatchResponse | undefined | Promise<never>) {
  const batches: string[][] = [];
  const handler = async (event: SQSEvent) => {
    batches.push(event.Records.map((r) => r.body));
    return reply(event, batches.length);
  };
  return { batches, handler };
}

const failBodies = (event: SQSEvent, bodies: string[]): SQSBatchResponse => ({
  batchItemFailures: event.Records.filter((r) => bodies.includes(r.body)).map((r) => ({
    itemIdentifier: r.messageId,
  })),
});

describe('EventSourceMapping', () => {
  it('honours the batch size', async () => {
    // Prepare
    const { queue } = setup();
    const { batches, handler } = recorder(() => undefined);
    queue.attach(handler, { batchSize: 4 });
    await queue.sendBatch(Array.from({ length: 10 }, (_, i) => `m${i}`));
    // Act
    const result = await queue.drain();
    // Assess
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
    expect(result).toEqual({ batches: 3, stoppedBy: 'empty', handlerErrors: [] });
    expect(queue.stats()).toMatchObject({ sent: 10, delivered: 10, succeeded: 10, failed: 0 });
  });

  it('keeps up to maxConcurrency invocations in flight, never more', async () => {
    // Prepare: each invocation waits until the test lets it finish.
    const { queue } = setup();
    let inFlight = 0;
    let peak = 0;
    const waiting: (() => void)[] = [];
    const seen: string[] = [];
    queue.attach(
      async (event: SQSEvent) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        seen.push(...event.Records.map((r) => r.body));
        await new Promise<void>((resolve) => waiting.push(resolve));
        inFlight--;
        return undefined;
      },
      { batchSize: 2, maxConcurrency: 3 },
    );
    await queue.sendBatch(Array.from({ length: 9 }, (_, i) => `m${i}`));
    // Act: release the invocations one at a time, as they arrive.
    const drained = queue.drain();
    while (seen.length < 9 || waiting.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      waiting.shift()?.();
    }
    const result = await drained;
    // Assess
    expect([peak, [...seen].sort(), result]).toEqual([
      3,
      Array.from({ length: 9 }, (_, i) => `m${i}`),
      { batches: 5, stoppedBy: 'empty', handlerErrors: [] },
    ]);
    expect(queue.stats()).toMatchObject({ delivered: 9, succeeded: 9 });
  });

  it.each([0, 1.5, 1001])('refuses maxConcurrency %s', (maxConcurrency) => {
    const { queue } = setup();
    expect(() => queue.attach(async () => undefined, { maxConcurrency })).toThrow(
      new ConfigError('event source for work: maxConcurrency must be an integer 1..1000'),
    );
  });

  it('redelivers only the records named in batchItemFailures', async () => {
    const { queue } = setup();
    const { batches, handler } = recorder((event, call) =>
      call === 1 ? failBodies(event, ['b']) : undefined,
    );
    queue.attach(handler);
    await queue.sendBatch(['a', 'b', 'c']);
    const first = await queue.drain({ waitForInvisible: true });
    expect(batches).toEqual([['a', 'b', 'c'], ['b']]);
    expect(first.stoppedBy).toBe('empty');
    expect(queue.stats()).toMatchObject({ delivered: 4, succeeded: 3, failed: 1 });
  });

  it('redelivers the whole batch when the handler throws', async () => {
    const { queue } = setup();
    const crash = new Error('crash');
    const { batches, handler } = recorder((_event, call) => (call === 1 ? Promise.reject(crash) : undefined));
    queue.attach(handler);
    await queue.sendBatch(['a', 'b']);
    const result = await queue.drain({ waitForInvisible: true });
    expect(batches).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(result.handlerErrors).toEqual([crash]);
  });

  it('redelivers the whole batch when batchItemFailures names a message it was not given', async () => {
    const { queue } = setup();
    const { batches, handler } = recorder((_e, call) =>
      call === 1 ? { batchItemFailures: [{ itemIdentifier: 'x' }] } : undefined,
    );
    queue.attach(handler);
    await queue.send('a');
    await queue.drain({ waitForInvisible: true });
    expect(batches).toEqual([['a'], ['a']]);
  });

  it('ignores batchItemFailures when ReportBatchItemFailures is off', async () => {
    const { queue } = setup();
    const { batches, handler } = recorder((event) => failBodies(event, ['a']));
    queue.attach(handler, { reportBatchItemFailures: false });
    await queue.send('a');
    await queue.drain({ waitForInvisible: true });
    expect(batches).toEqual([['a']]);
  });

  it('leaves a failed message invisible until the visibility timeout passes on the clock', async () => {
    // Prepare
    const { clock, queue } = setup();
    const { batches, handler } = recorder((event, call) =>
      call === 1 ? failBodies(event, ['a']) : undefined,
    );
    queue.attach(handler);
    await queue.send('a');
    // Act / Assess
    expect((await queue.drain()).stoppedBy).toBe('invisible');
    clock.advance(29_000);
    await queue.drain();
    expect(batches).toHaveLength(1);
    clock.advance(1_000);
    expect((await queue.drain()).stoppedBy).toBe('empty');
    expect(batches).toHaveLength(2);
  });

  it('gives the handler a growing receive count on each redelivery', async () => {
    const { queue } = setup(5);
    const counts: string[] = [];
    queue.attach(async (event) => {
      counts.push(event.Records[0].attributes.ApproximateReceiveCount);
      return counts.length < 3
        ? { batchItemFailures: [{ itemIdentifier: event.Records[0].messageId }] }
        : undefined;
    });
    await queue.send('a');
    await queue.drain({ waitForInvisible: true });
    expect(counts).toEqual(['1', '2', '3']);
  });

  it('dead-letters a message that keeps failing after maxReceiveCount deliveries', async () => {
    const { queue, dlq } = setup(3);
    const { batches, handler } = recorder(() => Promise.reject(new Error('always')));
    queue.attach(handler);
    await queue.send('doomed');
    const result = await queue.drain({ waitForInvisible: true });
    expect(batches).toHaveLength(3);
    expect(result.stoppedBy).toBe('empty');
    expect(dlq.messages().map((m) => m.body)).toEqual(['doomed']);
    expect(queue.stats()).toMatchObject({ delivered: 3, failed: 3, deadLettered: 1 });
  });

  it('stops at the iteration guard when a message can never leave', async () => {
    const clock = new ManualClock();
    const queue = new LocalSqsQueue({ name: 'no-dlq', clock });
    queue.attach(() => Promise.reject(new Error('always')));
    await queue.send('stuck');
    const result = await queue.drain({ waitForInvisible: true, maxIterations: 7 });
    expect(result.stoppedBy).toBe('max-iterations');
    expect(queue.size).toBe(1);
  });

  it('gives each invocation a Lambda context with the function name and a fresh request id', async () => {
    const { queue } = setup();
    const contexts: { name: string; id: string; remaining: number }[] = [];
    queue.attach(
      async (_event, context) => {
        contexts.push({
          name: context.functionName,
          id: context.awsRequestId,
          remaining: context.getRemainingTimeInMillis(),
        });
      },
      { batchSize: 1, functionName: 'placid-ingest', timeoutMs: 15_000 },
    );
    await queue.sendBatch(['a', 'b']);
    await queue.drain();
    expect(contexts.map((c) => [c.name, c.remaining])).toEqual([
      ['placid-ingest', 15_000],
      ['placid-ingest', 15_000],
    ]);
    expect(contexts[0].id).not.toBe(contexts[1].id);
  });

  it.each([0, 10_001, 2.5])('refuses a batch size of %s', (batchSize) => {
    expect(() => new LocalSqsQueue({ name: 'q1' }).attach(async () => {}, { batchSize })).toThrow(
      ConfigError,
    );
  });
});
