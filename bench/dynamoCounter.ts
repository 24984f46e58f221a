/**
 * Counts what a DynamoDB client sends, as AWS would bill it: requests by command, items read and
 * written, and the capacity units DynamoDB reports. It asks every data-plane request for
 * `ReturnConsumedCapacity: 'TOTAL'` (the store does not), so dynalite returns the units; counting
 * sits in the client's middleware stack, so no code path is missed and nothing is counted by hand.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

export interface DynamoCounts {
  requests: Record<string, number>;
  read_requests: number;
  write_requests: number;
  items_read: number;
  items_written: number;
  /** Read and write capacity units DynamoDB reported consumed (on-demand bills these). */
  rcu: number;
  wcu: number;
  /**
   * Writes refused by their condition (e.g. an ingest watermark already newer). DynamoDB bills
   * them (at least one write unit each) but returns no ConsumedCapacity with the error.
   */
  conditional_failures: number;
}

interface Capacity {
  CapacityUnits?: number;
}

type Output = {
  Item?: unknown;
  Items?: unknown[];
  Responses?: Record<string, unknown[]>;
  UnprocessedItems?: Record<string, unknown[]>;
  ConsumedCapacity?: Capacity | Capacity[];
};

const empty = (): DynamoCounts => ({
  requests: {},
  read_requests: 0,
  write_requests: 0,
  items_read: 0,
  items_written: 0,
  rcu: 0,
  wcu: 0,
  conditional_failures: 0,
});

export function countDynamo(doc: DynamoDBDocumentClient): { reset(): void; snapshot(): DynamoCounts } {
  let counts = empty();
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      const read = READS.has(name);
      const write = WRITES.has(name);
      const input = args.input as Record<string, unknown>;
      if (read || write) input.ReturnConsumedCapacity ??= 'TOTAL';
      counts.requests[name] = (counts.requests[name] ?? 0) + 1;
      if (read) counts.read_requests++;
      if (write) counts.write_requests++;
      const result = await next(args).catch((error: unknown) => {
        if ((error as Error).name === 'ConditionalCheckFailedException') counts.conditional_failures++;
        throw error;
      });
      const out = result.output as Output;
      const units = [out.ConsumedCapacity ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      if (read) {
        counts.rcu += units;
        counts.items_read +=
          (out.Item ? 1 : 0) +
          (out.Items?.length ?? 0) +
          Object.values(out.Responses ?? {}).reduce((n, items) => n + items.length, 0);
      }
      if (write) {
        counts.wcu += units;
        if (name === 'BatchWriteItem') {
          const sent = Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).flat().length;
          const left = Object.values(out.UnprocessedItems ?? {}).flat().length;
          counts.items_written += sent - left;
        } else counts.items_written++;
      }
      return result;
    },
    { step: 'initialize', name: 'benchDynamoCounter' },
  );
  return {
    reset: () => {
      counts = empty();
    },
    snapshot: () => ({
      ...counts,
      requests: { ...counts.requests },
      rcu: round1(counts.rcu),
      wcu: round1(counts.wcu),
    }),
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
