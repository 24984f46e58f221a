import 'aws-sdk-client-mock-vitest/extend';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { BATCH_WRITE_LIMIT, batchPut } from '../../lib/store/batchWriter.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { BatchWriteError } from '../../lib/store/errors.js';
import { backoffDelay } from '../../lib/store/retry.js';
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
