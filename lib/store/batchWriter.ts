/** BatchWriteItem with DynamoDB's rules handled: 25 items a call, unprocessed items and throttling retried. */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapLimit } from './concurrency.js';
import { BatchWriteError } from './errors.js';
import { backoffDelay, DEFAULT_RETRY, isThrottling, type RetryPolicy } from './retry.js';
import type { TableDefinition } from './tables.js';

/** DynamoDB's cap on requests in one BatchWriteItem call. */
export const BATCH_WRITE_LIMIT = 25;

type Item = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Item } };

export interface BatchWriteStats {
  /** Items DynamoDB accepted (after de-duplication by key). */
  written: number;
  /** BatchWriteItem calls made, retries included. */
  calls: number;
  /** Calls that returned UnprocessedItems or failed with a throttling error. */
  retries: number;
}

export interface BatchWriteOptions {
  retry?: Partial<RetryPolicy>;
  /** Batches in flight at once. */
  concurrency?: number;
}

/**
 * Puts `items` into `tableName` (laid out as `table`) in batches of 25. Items with the same key
 * are collapsed to the last one, because DynamoDB rejects a batch that repeats a key. Unprocessed
 * items and throttled calls are retried with full-jitter backoff up to `maxAttempts` calls per batch.
 * @throws BatchWriteError (retryable) when a batch still has unprocessed items after the last attempt.
 */
export async function batchPut(
  doc: DynamoDBDocumentClient,
  table: TableDefinition,
  tableName: string,
  items: readonly Item[],
  options: BatchWriteOptions = {},
): Promise<BatchWriteStats> {
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const stats: BatchWriteStats = { written: 0, calls: 0, retries: 0 };
  const unique = uniqueByKey(table, items);
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_WRITE_LIMIT) {
    batches.push(unique.slice(i, i + BATCH_WRITE_LIMIT).map((Item) => ({ PutRequest: { Item } })));
  }
  await mapLimit(batches, options.concurrency ?? 4, (batch) =>
    writeBatch(doc, tableName, batch, policy, stats),
  );
  return stats;
}

async function writeBatch(
  doc: DynamoDBDocumentClient,
  tableName: string,
  batch: WriteRequest[],
  policy: RetryPolicy,
  stats: BatchWriteStats,
): Promise<void> {
  let pending = batch;
  for (let attempt = 0; ; attempt++) {
    let unprocessed: WriteRequest[];
    let cause: unknown;
    stats.calls++;
    try {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      unprocessed = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    } catch (error) {
      if (!isThrottling(error)) throw error;
      unprocessed = pending;
      cause = error;
    }
    stats.written += pending.length - unprocessed.length;
    if (unprocessed.length === 0) return;
    if (attempt + 1 >= policy.maxAttempts) {
      throw new BatchWriteError(
        `${unprocessed.length} item(s) for ${tableName} still unprocessed after ${policy.maxAttempts} attempts`,
        unprocessed.length,
        { cause },
      );
    }
    stats.retries++;
    await policy.sleep(backoffDelay(attempt, policy));
    pending = unprocessed;
  }
}

function uniqueByKey(table: TableDefinition, items: readonly Item[]): Item[] {
  const keyNames = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
  const byKey = new Map<string, Item>();
  for (const item of items) byKey.set(JSON.stringify(keyNames.map((k) => item[k])), item);
  return [...byKey.values()];
}
