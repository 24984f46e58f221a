import 'aws-sdk-client-mock-vitest/extend';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { backoffDelay } from '../../lib/model/backoff.js';
import { BATCH_WRITE_LIMIT, batchPut, batchPutSettled } from '../../lib/store/batchWriter.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { BatchWriteError } from '../../lib/store/errors.js';
import { TABLES } from '../../lib/store/tables.js';

const sampleItems = (entity: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    entity,
    ts: new Date(Date.UTC(2026, 11, 1, 0, 0, i)).toISOString(),
    v: i,
  }));

describe('batchPut against dynalite', () => {
  let local: LocalDynamo;
  beforeAll(async () => {
    local = await startLocalDynamo();
  });
  afterAll(async () => {
    await local.close();
  });

  async function countItems(entity: string): Promise<number> {
    const { Items } = await local.client.send(new ScanCommand({ TableName: local.tableNames.samples }));
    return (Items ?? []).filter((i) => i.entity === entity).length;
  }

  it('writes more than 25 items in calls of at most 25', async () => {
    // Act
    const stats = await batchPut(
      local.client,
      TABLES.samples,
      local.tableNames.samples,
      sampleItems('many', 60),
    );
    // Assess
    expect(stats).toEqual({ written: 60, calls: 3, retries: 0 });
    expect(await countItems('many')).toBe(60);
  });

  it('collapses items with the same key instead of sending a batch DynamoDB would reject', async () => {
    // Prepare
    const items = [...sampleItems('dup', 3), { ...sampleItems('dup', 1)[0], v: 'last' }];
    // Act
    const stats = await batchPut(local.client, TABLES.samples, local.tableNames.samples, items);
    // Assess
    expect(stats.written).toBe(3);
    expect(await countItems('dup')).toBe(3);
  });

  it('makes no call for no items', async () => {
    // Act
    const stats = await batchPut(local.client, TABLES.samples, local.tableNames.samples, []);
    // Assess
    expect(stats).toEqual({ written: 0, calls: 0, retries: 0 });
  });
});

describe('batchPut when DynamoDB pushes back (mocked client)', () => {
  const doc = createDocumentClient({ endpoint: 'http://127.0.0.1:9' });
  const ddb = mockClient(doc);
  const sleeps: number[] = [];
  const retry = { sleep: async (ms: number) => void sleeps.push(ms), random: () => 0.5, maxAttempts: 4 };
  const put = (n: number) =>
    batchPut(doc, TABLES.samples, 'samples', sampleItems('e', n), { retry, concurrency: 1 });
  const throttle = (name: string) => Object.assign(new Error(`${name} (test)`), { name });

  beforeEach(() => {
    ddb.reset();
    sleeps.length = 0;
  });

  it('resends only the UnprocessedItems until every item is written', async () => {
    // Prepare
    const leftOver = sampleItems('e', 5).map((Item) => ({ PutRequest: { Item } }));
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { samples: leftOver } })
      .resolves({ UnprocessedItems: {} });
    // Act
    const stats = await put(BATCH_WRITE_LIMIT);
    // Assess
    expect(stats).toEqual({ written: 25, calls: 2, retries: 1 });
    expect(ddb).toHaveReceivedNthCommandWith(BatchWriteCommand, 2, { RequestItems: { samples: leftOver } });
  });

  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'])(
    'retries a call that fails with %s',
    async (name) => {
      // Prepare
      ddb.on(BatchWriteCommand).rejectsOnce(throttle(name)).resolves({});
      // Act
      const stats = await put(10);
      // Assess
      expect(stats).toEqual({ written: 10, calls: 2, retries: 1 });
    },
  );

  it('backs off with full jitter that doubles its window each retry', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).rejects(throttle('ThrottlingException'));
    // Act
    await put(1).catch(() => undefined);
    // Assess: random() = 0.5 of 50, 100, 200 ms.
    expect(sleeps).toEqual([25, 50, 100]);
  });

  it('gives up after maxAttempts with a retryable BatchWriteError naming what is left', async () => {
    // Prepare
    const leftOver = sampleItems('e', 2).map((Item) => ({ PutRequest: { Item } }));
    ddb.on(BatchWriteCommand).resolves({ UnprocessedItems: { samples: leftOver } });
    // Act
    const attempt = put(2);
    // Assess
    await expect(attempt).rejects.toThrow(BatchWriteError);
    await expect(attempt).rejects.toMatchObject({ unprocessed: 2, retryable: true });
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 4);
  });

  it('does not retry an error that is not throttling', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).rejects(Object.assign(new Error('bad item'), { name: 'ValidationException' }));
    // Act
    const attempt = put(3);
    // Assess
    await expect(attempt).rejects.toThrow('bad item');
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 1);
  });
});

describe('batchPutSettled (mocked client)', () => {
  const doc = createDocumentClient({ endpoint: 'http://127.0.0.1:9' });
  const ddb = mockClient(doc);
  const retry = { sleep: async () => {}, random: () => 0.5, maxAttempts: 2 };
  const settle = (n: number) =>
    batchPutSettled(doc, TABLES.samples, 'samples', sampleItems('e', n), { retry, concurrency: 1 });
  const requestsOf = (i: number) =>
    ddb.commandCalls(BatchWriteCommand)[i].args[0].input.RequestItems?.samples ?? [];

  beforeEach(() => {
    ddb.reset();
  });

  it('reports the items a batch left unprocessed after its last attempt, and only those', async () => {
    // Prepare: the second batch of 25 keeps handing back its last two items
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({})
      .callsFake((input) => ({ UnprocessedItems: { samples: input.RequestItems.samples.slice(-2) } }));
    // Act
    const settled = await settle(30);
    // Assess
    expect(settled.failures).toHaveLength(1);
    expect(settled.failures[0].items).toEqual(sampleItems('e', 30).slice(28));
    expect(settled.failures[0].error).toBeInstanceOf(BatchWriteError);
    expect(settled.written).toBe(28);
  });

  it('reports every item of a batch whose call failed with an error that is not throttling', async () => {
    // Prepare
    const bad = Object.assign(new Error('bad item'), { name: 'ValidationException' });
    ddb.on(BatchWriteCommand).resolvesOnce({}).rejectsOnce(bad).resolves({});
    // Act
    const settled = await settle(60);
    // Assess
    expect(settled.failures).toEqual([{ items: requestsOf(1).map((r) => r.PutRequest?.Item), error: bad }]);
    expect(settled.written).toBe(35);
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 3);
  });

  it('names the items left in the BatchWriteError batchPut throws', async () => {
    // Prepare
    ddb
      .on(BatchWriteCommand)
      .callsFake((input) => ({ UnprocessedItems: { samples: input.RequestItems.samples.slice(0, 1) } }));
    // Act
    const attempt = batchPut(doc, TABLES.samples, 'samples', sampleItems('e', 3), { retry });
    // Assess
    await expect(attempt).rejects.toMatchObject({ unprocessed: 1, items: sampleItems('e', 1) });
  });
});

describe('backoffDelay', () => {
  it.each([
    [0, 50],
    [3, 400],
    [10, 5_000],
  ])('after attempt %i stays below %i ms', (attempt, ceiling) => {
    // Act
    const delays = [0, 0.5, 0.999999].map((r) =>
      backoffDelay(attempt, { baseDelayMs: 50, maxDelayMs: 5_000, random: () => r }),
    );
    // Assess
    expect(delays[0]).toBe(0);
    expect(delays[1]).toBe(ceiling / 2);
    expect(delays[2]).toBe(ceiling - 1);
  });
});
