/** What every store module needs: the client, physical table names, a clock and the tunables. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Clock, systemClock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { type LivenessWindow, sightingLookbackMs } from './sightingLookback.js';
import type { TableNames } from './tables.js';

export interface StoreContext {
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  /** The store's time (the one Clock port; only `now` is read): stamps `updated_at`, TTLs and expiry. */
  clock: Pick<Clock, 'now'>;
  retry: RetryPolicy;
  /** Conditional writes in flight at once per call. */
  concurrency: number;
  /** Samples expire this long after their own timestamp. */
  sampleRetentionSeconds: number;
  /** An instance that stops reporting disappears from reads this long after its last report. */
  instanceRetentionSeconds: number;
  /**
   * An unchanged instance state is rewritten at most this often (per VM, ¾–1× of it), only to
   * refresh its `reported_at` and TTL; must stay well below the instance retention.
   */
  instanceHeartbeatMs: number;
  /**
   * An unchanged host state that left no claim is rewritten at most this often (per node, ¾–1× of
   * it). Until then its stored `reported_at` lags, and a claim that lapsed meanwhile stays counted.
   */
  hostHeartbeatMs: number;
  decisionRetentionSeconds: number;
  /** A claim whose instance never shows up in a host report stops counting after this long. */
  claimTtlMs: number;
  /**
   * hostsChangedSince re-reads this much history before its cursor: a write stamped with the
   * writer's clock can become visible after a later-stamped one (clock skew, slow commit).
   */
  changeOverlapMs: number;
  /**
   * How far back readers look for host sightings (hostSightings.ts). Derived from the options'
   * `serviceDownTimeSeconds` and `reportIntervalSeconds` unless given (sightingLookback.ts).
   */
  sightingLookbackMs: number;
  /**
   * Leases tables this store has marked as holding window digests (windowCoverage.ts): one
   * conditional write per store, so per warm container.
   */
  digestsMarked: Set<string>;
}

export type StoreOptions = Pick<StoreContext, 'doc' | 'tables'> &
  Partial<Omit<StoreContext, 'doc' | 'tables' | 'retry' | 'digestsMarked'>> & {
    retry?: Partial<RetryPolicy>;
  } & LivenessWindow;

export function storeContext(options: StoreOptions): StoreContext {
  const { serviceDownTimeSeconds, reportIntervalSeconds, ...tunables } = options;
  return {
    clock: systemClock,
    concurrency: 16,
    sampleRetentionSeconds: 2 * 86_400,
    instanceRetentionSeconds: 86_400,
    instanceHeartbeatMs: 15 * 60_000,
    hostHeartbeatMs: 15 * 60_000,
    decisionRetentionSeconds: 30 * 86_400,
    claimTtlMs: 10 * 60_000,
    changeOverlapMs: 10_000,
    sightingLookbackMs: sightingLookbackMs({ serviceDownTimeSeconds, reportIntervalSeconds }),
    ...tunables,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    digestsMarked: new Set(),
  };
}

/** A host's stored state may lag its agent by up to this much; see `checkHeartbeats`. */
export const MAX_HOST_HEARTBEAT_MS = 60 * 60_000;

/**
 * Rejects heartbeats that would let state go stale. A skipped instance write refreshes neither
 * reported_at nor the TTL, so its heartbeat must come well before expiry. A skipped host write
 * leaves reported_at (what `placid fleet` shows as the report age) and lapsed claims in place.
 */
export function checkHeartbeats(ctx: StoreContext): void {
  const { instanceHeartbeatMs: instance, instanceRetentionSeconds: retention, hostHeartbeatMs: host } = ctx;
  if (!(instance > 0 && instance <= (retention * 1000) / 4)) {
    throw new ConfigError(
      `instanceHeartbeatMs must be positive and at most a quarter of instanceRetentionSeconds ` +
        `(${retention} s); got ${instance}`,
    );
  }
  if (!(host > 0 && host <= MAX_HOST_HEARTBEAT_MS)) {
    throw new ConfigError(
      `hostHeartbeatMs must be positive and at most ${MAX_HOST_HEARTBEAT_MS} (1 h); got ${host}`,
    );
  }
}

/** Epoch seconds, the unit DynamoDB TTL attributes use. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
