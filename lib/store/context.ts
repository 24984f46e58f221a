/** What every store module needs: the client, physical table names, a clock and the tunables. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import type { TableNames } from './tables.js';

export interface StoreContext {
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  /** Injectable for tests; also stamps `updated_at` and TTLs. */
  clock: () => Date;
  retry: RetryPolicy;
  /** Conditional writes in flight at once per call. */
  concurrency: number;
  /** Samples expire this long after their own timestamp. */
  sampleRetentionSeconds: number;
  /** An instance that stops reporting disappears from reads this long after its last report. */
  instanceRetentionSeconds: number;
  decisionRetentionSeconds: number;
  /** A claim whose instance never shows up in a host report stops counting after this long. */
  claimTtlMs: number;
  /**
   * hostsChangedSince re-reads this much history before its cursor: a write stamped with the
   * writer's clock can become visible after a later-stamped one (clock skew, slow commit).
   */
  changeOverlapMs: number;
}

export type StoreOptions = Pick<StoreContext, 'doc' | 'tables'> &
  Partial<Omit<StoreContext, 'doc' | 'tables' | 'retry'>> & { retry?: Partial<RetryPolicy> };

export function storeContext(options: StoreOptions): StoreContext {
  return {
    clock: () => new Date(),
    concurrency: 16,
    sampleRetentionSeconds: 2 * 86_400,
    instanceRetentionSeconds: 86_400,
    decisionRetentionSeconds: 30 * 86_400,
    claimTtlMs: 10 * 60_000,
    changeOverlapMs: 10_000,
    ...options,
    retry: { ...DEFAULT_RETRY, ...options.retry },
  };
}

/** Epoch seconds, the unit DynamoDB TTL attributes use. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
