/**
 * The batch-wide writes of one SQS batch (lib/ingest/batchWrites.ts): every message's sample pages
 * in as few BatchWriteItem calls as fit, the ingest watermark once, and partial batch responses
 * that fail only the messages whose writes did not land.
 */
import { BatchWriteCommand, type BatchWriteCommandInput, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestBatch } from '../../lib/ingest/ingestBatch.js';
import { NotedWatermark } from '../../lib/ingest/notedWatermark.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { ManualClock } from '../../lib/model/clock.js';
import { BATCH_WRITE_LIMIT } from '../../lib/store/batchWriter.js';
import { BatchWriteError } from '../../lib/store/errors.js';
import { INGEST_WATERMARK_NAME } from '../../lib/store/ingestWatermark.js';
import { sqsEvent, sqsRecord } from '../queue/sqsRecords.js';
import { NOW, useStore } from '../store/fixtures.js';
import { type Injector, injectFaults, isCall, throttle } from './faults.js';
import { at, body, hypervisorDoc } from './harness.js';

const NODES_PER_MESSAGE = 6;

const h = useStore();
let calls: Record<string, number> = {};
let faults: Injector | undefined;
beforeAll(() => {
  // Counts requests by command and table, as DynamoDB would bill them.
  h.store.ctx.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; RequestItems?: Record<string, unknown> };
      const table = input.TableName ?? Object.keys(input.RequestItems ?? {})[0];
      const key = `${String(context.commandName).replace(/Command$/, '')} ${table}`;
      calls[key] = (calls[key] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'testRequestCounter' },
  );
});
beforeEach(async () => {
  const { ctx } = h.store;
  await ctx.doc.send(
    new DeleteCommand({ TableName: ctx.tables.leases, Key: { name: INGEST_WATERMARK_NAME } }),
  );
  calls = {};
});
afterEach(() => {
  faults?.restore();
  faults = undefined;
});

const tables = () => h.store.ctx.tables;
const count = (command: string, table: keyof ReturnType<typeof tables>) =>
  calls[`${command} ${tables()[table]}`] ?? 0;

/** Message `m<i>` of a batch: NODES_PER_MESSAGE nodes `<prefix>-m<i>-n<k>`, so as many pages. */
function record(prefix: string, i: number, reportedAt = at(-5)) {
  const nodes = Array.from({ length: NODES_PER_MESSAGE }, (_, k) => `${prefix}-m${i}-n${k}`);
  const docs = nodes.map((n) => hypervisorDoc({ host: n, nodename: n, reported_at: reportedAt }));
  return sqsRecord(body(docs), { messageId: `m${i}` });
}

const batchOf = (prefix: string, n: number, newest?: { index: number; at: string }) =>
  sqsEvent(
    ...Array.from({ length: n }, (_, i) =>
      record(prefix, i, newest?.index === i ? newest.at : at(-5 + i / 100)),
    ),
  );

const ingest = (event: ReturnType<typeof sqsEvent>, watermark?: NotedWatermark) =>
  ingestBatch(event, {
    store: h.store,
    deadLetter: new LocalSqsQueue({ name: 'dlq' }),
    clock: new ManualClock(NOW),
    watermark,
  });

/** A BatchWriteItem that never takes the pages of nodes whose key contains `marker`. */
const refusePagesOf =
  (marker: string) =>
  async (command: { input: Record<string, unknown> }, send: (c: never) => Promise<unknown>) => {
    const requests = command.input.RequestItems as NonNullable<BatchWriteCommandInput['RequestItems']>;
    const [table, items] = Object.entries(requests)[0];
    const refused = items.filter((r) => String(r.PutRequest?.Item?.entity).includes(marker));
    const taken = items.filter((r) => !refused.includes(r));
    if (taken.length > 0) await send(new BatchWriteCommand({ RequestItems: { [table]: taken } }) as never);
    return { UnprocessedItems: refused.length > 0 ? { [table]: refused } : {} };
  };

describe('one SQS batch of ten messages', () => {
  it('writes all its sample pages in ⌈pages / 25⌉ BatchWriteItem calls', async () => {
    // Act
    const result = await ingest(batchOf('pages', 10));
    // Assess
    const pages = 10 * NODES_PER_MESSAGE;
    expect(count('BatchWriteItem', 'samples')).toBe(Math.ceil(pages / BATCH_WRITE_LIMIT));
    expect(result.reports).toMatchObject({ stored: pages, pages, samples: pages });
    expect(result.response.batchItemFailures).toEqual([]);
  });

  it('notes the ingest watermark once, at the newest report of the batch', async () => {
    // Act
    await ingest(batchOf('mark', 10, { index: 7, at: at(-1) }));
    // Assess
    expect(count('UpdateItem', 'leases')).toBe(1);
    expect(await h.store.ingestWatermark()).toBe(at(-1));
  });

  it('notes no watermark for a batch with nothing stored', async () => {
    // Act
    await ingest(sqsEvent(sqsRecord('not json', { messageId: 'bad' })));
    // Assess
    expect(count('UpdateItem', 'leases')).toBe(0);
    expect(await h.store.ingestWatermark()).toBeNull();
  });
});

describe('batches of one warm container', () => {
  it('skip the watermark write when it already noted the same or a newer report time', async () => {
    // Prepare
    const watermark = new NotedWatermark();
    await ingest(batchOf('warm-a', 2, { index: 1, at: at(-1) }), watermark);
    // Act: the same newest time, then an older one
    await ingest(batchOf('warm-b', 2, { index: 1, at: at(-1) }), watermark);
    await ingest(batchOf('warm-c', 2), watermark);
    // Assess
    expect(count('UpdateItem', 'leases')).toBe(1);
    expect(await h.store.ingestWatermark()).toBe(at(-1));
  });

  it('write it again once a batch carries a newer report', async () => {
    // Prepare
    const watermark = new NotedWatermark();
    await ingest(batchOf('newer-a', 2, { index: 1, at: at(-2) }), watermark);
    // Act
    await ingest(batchOf('newer-b', 2, { index: 0, at: at(-1) }), watermark);
    // Assess
    expect(count('UpdateItem', 'leases')).toBe(2);
    expect(await h.store.ingestWatermark()).toBe(at(-1));
  });

  it('retry a watermark whose write failed, instead of taking it as noted', async () => {
    // Prepare
    const watermark = new NotedWatermark();
    faults = injectFaults(h.store.ctx.doc, [
      { when: isCall('UpdateCommand', tables().leases), times: Number.POSITIVE_INFINITY, act: throttle },
    ]);
    const failed = await ingest(batchOf('retry', 2, { index: 1, at: at(-1) }), watermark);
    faults.restore();
    faults = undefined;
    // Act: the redelivery
    const redelivered = await ingest(batchOf('retry', 2, { index: 1, at: at(-1) }), watermark);
    // Assess
    expect(failed.response.batchItemFailures).toHaveLength(2);
    expect(redelivered.response.batchItemFailures).toEqual([]);
    expect(await h.store.ingestWatermark()).toBe(at(-1));
  });
});

describe('one SQS batch when some writes do not land', () => {
  it('fails only the message whose pages stayed unprocessed, and leaves it out of the watermark', async () => {
    // Prepare: m3 carries the newest report, so the watermark shows whether it counted
    faults = injectFaults(h.store.ctx.doc, [
      { when: isCall('BatchWriteCommand'), times: Number.POSITIVE_INFINITY, act: refusePagesOf('-m3-') },
    ]);
    // Act
    const result = await ingest(batchOf('partial', 10, { index: 3, at: at(-1) }));
    // Assess
    expect(result.response.batchItemFailures).toEqual([{ itemIdentifier: 'm3' }]);
    expect(result.counts).toEqual({ stored: 9, rejected: 0, retried: 1 });
    expect(result.retried).toEqual([{ messageId: 'm3', error: expect.any(BatchWriteError) }]);
    expect(result.reports.pages).toBe(9 * NODES_PER_MESSAGE);
    expect(await h.store.ingestWatermark()).toBe(at(-5 + 9 / 100));
  });

  it('fails the messages with a page in a call that failed outright, and no others', async () => {
    // Prepare: the second call (pages 25-49) fails with an error that is not throttling
    const bad = Object.assign(new Error('item too large (test)'), { name: 'ValidationException' });
    let seen = 0;
    faults = injectFaults(h.store.ctx.doc, [
      {
        when: (c) => isCall('BatchWriteCommand')(c) && ++seen === 2,
        times: 1,
        act: async () => Promise.reject(bad),
      },
    ]);
    // Act
    const result = await ingest(batchOf('outright', 10));
    // Assess: message i holds pages 6i … 6i + 5
    const hit = ['m4', 'm5', 'm6', 'm7', 'm8'];
    expect(result.response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(hit);
    expect(result.retried).toEqual(hit.map((messageId) => ({ messageId, error: bad })));
    expect(result.counts).toEqual({ stored: 5, rejected: 0, retried: 5 });
  });

  it('dead-letters a malformed message alone and writes no pages for a message whose state write failed', async () => {
    // Prepare
    faults = injectFaults(h.store.ctx.doc, [
      {
        when: (c) =>
          isCall('UpdateCommand', tables().hosts)(c) &&
          String((c.input.Key as { host: string }).host).startsWith('mixed-m2-'),
        times: Number.POSITIVE_INFINITY,
        act: throttle,
      },
    ]);
    const event = batchOf('mixed', 4);
    event.Records[1] = sqsRecord('{"schema_version": 1', { messageId: 'm1' });
    // Act
    const result = await ingest(event);
    // Assess
    expect(result.rejections.map((r) => r.messageId)).toEqual(['m1']);
    expect(result.response.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
    expect(result.counts).toEqual({ stored: 2, rejected: 1, retried: 1 });
    expect(result.reports.pages).toBe(2 * NODES_PER_MESSAGE);
    expect(count('BatchWriteItem', 'samples')).toBe(1);
  });

  it('hands every stored message back when the watermark cannot be written', async () => {
    // Prepare
    faults = injectFaults(h.store.ctx.doc, [
      { when: isCall('UpdateCommand', tables().leases), times: Number.POSITIVE_INFINITY, act: throttle },
    ]);
    // Act
    const result = await ingest(batchOf('nomark', 3));
    // Assess
    expect(result.response.batchItemFailures).toEqual([
      { itemIdentifier: 'm0' },
      { itemIdentifier: 'm1' },
      { itemIdentifier: 'm2' },
    ]);
    expect(result.counts).toEqual({ stored: 0, rejected: 0, retried: 3 });
  });
});

describe('hosts whose unchanged state is not rewritten', () => {
  /** A batch of `seen` messages m0..m2: m0 and m1 newer, unchanged reports; m2 a duplicate of the first batch's. */
  const secondBatch = (prefix: string) =>
    sqsEvent(record(prefix, 0, at(-4)), record(prefix, 1, at(-4)), record(prefix, 2, at(-5 + 2 / 100)));

  it("are recorded in one sighting item per batch, in the pages' calls, which readers take as their heartbeat", async () => {
    // Prepare
    await ingest(batchOf('sighted', 3));
    calls = {};
    // Act
    const result = await ingest(secondBatch('sighted'));
    // Assess: 3 × 6 pages, their digest and the sighting item in ⌈20 / 25⌉ calls, no request of its own
    expect(result.reports).toMatchObject({ unchanged: 2 * NODES_PER_MESSAGE, stale: NODES_PER_MESSAGE });
    expect(count('PutItem', 'samples')).toBe(0);
    expect(count('BatchWriteItem', 'samples')).toBe(1);
    const host = await h.store.getHost('sighted-m1-n3');
    expect(host?.reported_at).toBe(at(-5 + 1 / 100));
    expect(host?.seen_at).toBe(at(-4));
    expect(host?.state.service.last_seen_up).toBe(at(-4));
  });

  it('hand back only the messages they came from when the sighting cannot be written, and the redelivery stores them', async () => {
    // Prepare
    await ingest(batchOf('unsighted', 3));
    faults = injectFaults(h.store.ctx.doc, [
      { when: isCall('BatchWriteCommand'), times: Number.POSITIVE_INFINITY, act: refusePagesOf('seen#') },
    ]);
    // Act
    const failed = await ingest(secondBatch('unsighted'));
    faults.restore();
    faults = undefined;
    const redelivered = await ingest(
      sqsEvent(record('unsighted', 0, at(-4)), record('unsighted', 1, at(-4))),
    );
    // Assess
    expect(failed.response.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
    expect(redelivered.reports).toMatchObject({ stored: 2 * NODES_PER_MESSAGE, unchanged: 0, stale: 0 });
    expect((await h.store.getHost('unsighted-m0-n0'))?.state.service.last_seen_up).toBe(at(-4));
  });
});
