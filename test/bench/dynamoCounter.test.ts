/**
 * The scale bench's DynamoDB counter (bench/dynamoCounter.ts) on a real client against dynalite:
 * cost figures in docs/cost.md rest on it counting requests, items and capacity units correctly.
 */
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDynamo } from '../../bench/dynamoCounter.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { type StoreHarness, startStore } from '../store/fixtures.js';

let h: StoreHarness;
beforeAll(async () => {
  h = await startStore();
});
afterAll(async () => {
  await h.local.close();
});

describe('countDynamo', () => {
  it('counts requests, items and the capacity units dynalite reports, asked for by the middleware', async () => {
    // Prepare: a client of its own, so only this test's requests are counted
    const doc = createDocumentClient({ endpoint: h.local.endpoint });
    const counter = countDynamo(doc);
    const table = h.store.ctx.tables.leases;
    const big = 'x'.repeat(2_500); // 3 write units: a unit covers 1 KB

    // Act
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: [{ PutRequest: { Item: { name: 'a', big } } }, { PutRequest: { Item: { name: 'b' } } }],
        },
      }),
    );
    await doc.send(new PutCommand({ TableName: table, Item: { name: 'c' } }));
    const refused = doc.send(
      new PutCommand({
        TableName: table,
        Item: { name: 'c' },
        ConditionExpression: 'attribute_not_exists(#n)',
        ExpressionAttributeNames: { '#n': 'name' },
      }),
    );
    await expect(refused).rejects.toThrow(/conditional/i);
    await doc.send(new GetCommand({ TableName: table, Key: { name: 'a' }, ConsistentRead: true }));
    await doc.send(new GetCommand({ TableName: table, Key: { name: 'missing' } }));
    const counts = counter.snapshot();

    // Assert
    expect(counts.requests).toEqual({ BatchWriteItem: 1, PutItem: 2, GetItem: 2 });
    expect(counts.write_requests).toBe(3);
    expect(counts.read_requests).toBe(2);
    expect(counts.items_written).toBe(3);
    expect(counts.items_read).toBe(1);
    expect(counts.conditional_failures).toBe(1);
    expect(counts.wcu).toBe(3 + 1 + 1);
    expect(counts.rcu).toBeGreaterThan(0);
    counter.reset();
    expect(counter.snapshot().requests).toEqual({});
    doc.destroy();
  });

  it('counts every item a Query returns', async () => {
    // Prepare
    const doc = createDocumentClient({ endpoint: h.local.endpoint });
    const counter = countDynamo(doc);
    const table = h.store.ctx.tables.leases;
    await doc.send(new PutCommand({ TableName: table, Item: { name: 'q' } }));
    counter.reset();

    // Act
    await doc.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'q' },
      }),
    );

    // Assert
    expect(counter.snapshot()).toMatchObject({ requests: { Query: 1 }, items_read: 1, read_requests: 1 });
    doc.destroy();
  });
});
