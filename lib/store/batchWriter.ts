/** BatchWriteItem with DynamoDB's rules handled: 25 items a call, unprocessed items and throttling retried. */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoffDelay } from '../model/backoff.js';
import { isThrottling } from '../model/failure.js';
import { mapLimit } from './concurrency.js';
import { BatchWriteError } from './errors.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
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

/** Items a batch could not write, and why: throttling that outlived the retries, or another error. */
export interface BatchWriteFailure {
  items: Item[];
  /** A BatchWriteError when DynamoDB kept pushing back; otherwise the error the call failed with. */
  error: unknown;
}

export interface SettledBatchWrite extends BatchWriteStats {
  /** Empty when every item was written. */
  failures: BatchWriteFailure[];
}

/**
 * Puts `items` into `tableName` (laid out as `table`) in batches of 25. Items with the same key
 * are collapsed to the last one, because DynamoDB rejects a batch that repeats a key. Unprocessed
 * items and throttled calls are retried with full-jitter backoff up to `maxAttempts` calls per batch.
 * @throws BatchWriteError (retryable) when a batch still has unprocessed items after the last
 *   attempt; an error that is not throttling as it came (after every batch has settled).
 */
export async function batchPut(
  doc: DynamoDBDocumentClient,
  table: TableDefinition,
  tableName: string,
  items: readonly Item[],
  options: BatchWriteOptions = {},
): Promise<BatchWriteStats> {
  const { failures, ...stats } = await batchPutSettled(doc, table, tableName, items, options);
  if (failures.length === 0) return stats;
  const other = failures.find((f) => !(f.error instanceof BatchWriteError));
  if (other) throw other.error;
  const left = failures.flatMap((f) => f.items);
  throw new BatchWriteError(
    `${left.length} item(s) for ${tableName} still unprocessed after ${options.retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts} attempts`,
    left.length,
    { cause: failures[0].error, items: left },
  );
}

/**
 * batchPut that never throws for items it could not write: it reports them, so a caller writing
 * items on behalf of several messages can fail only the messages whose items were left out.
 */
export async function batchPutSettled(
  doc: DynamoDBDocumentClient,
  table: TableDefinition,
  tableName: string,
  items: readonly Item[],
  options: BatchWriteOptions = {},
): Promise<SettledBatchWrite> {
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const settled: SettledBatchWrite = { written: 0, calls: 0, retries: 0, failures: [] };
  const unique = uniqueByKey(table, items);
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_WRITE_LIMIT) {
    batches.push(unique.slice(i, i + BATCH_WRITE_LIMIT).map((Item) => ({ PutRequest: { Item } })));
  }
  await mapLimit(batches, options.concurrency ?? 4, async (batch) => {
    const failure = await writeBatch(doc, tableName, batch, policy, settled);
    if (failure) settled.failures.push(failure);
  });
  return settled;
}

/** Writes one batch of at most 25, retrying what DynamoDB pushes back; returns what stayed unwritten. */
async function writeBatch(
  doc: DynamoDBDocumentClient,
  tableName: string,
  batch: WriteRequest[],
  policy: RetryPolicy,
  stats: BatchWriteStats,
): Promise<BatchWriteFailure | undefined> {
  let pending = batch;
  for (let attempt = 0; ; attempt++) {
    let unprocessed: WriteRequest[];
    let cause: unknown;
    stats.calls++;
    try {
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      unprocessed = (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    } catch (error) {
      if (!isThrottling(error)) return { items: pending.map((r) => r.PutRequest.Item), error };
      unprocessed = pending;
      cause = error;
    }
    stats.written += pending.length - unprocessed.length;
    if (unprocessed.length === 0) return undefined;
    if (attempt + 1 >= policy.maxAttempts) {
      const items = unprocessed.map((r) => r.PutRequest.Item);
      const error = new BatchWriteError(
        `${items.length} item(s) for ${tableName} still unprocessed after ${policy.maxAttempts} attempts`,
        items.length,
        { cause, items },
      );
      return { items, error };
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
