/**
 * What this process last wrote for each state item (an instance, a host's node), so a report that
 * changes nothing but `reported_at` and its samples costs no write. Lives as long as the store
 * object (a warm Lambda container); bounded by an LRU, so a forgotten key just costs one write.
 *
 * The memo only knows this process's writes. If another process writes a different state for the
 * same key and the state then returns to the one remembered here (e.g. a VM migrated away and back
 * within minutes), this process skips the write and the stored state lags until the next
 * heartbeat: at most the heartbeat.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Every VM of the largest fleet Placid is built for (10,000 hypervisors × 40 VMs) in one container:
 * an entry is well under 200 bytes, so about 80 MB at most. A memo smaller than the fleet is worse
 * than useless: least-recently-used eviction drops each VM just before its next report, so nothing
 * is ever skipped (measured at 10k hosts / 200k VMs with 100k entries: 77× the write units of 1k).
 */
export const INSTANCE_MEMO_SIZE = 400_000;
/** Compute nodes per container; a fleet that large is far beyond one region's cells. */
export const HOST_MEMO_SIZE = 20_000;

interface Remembered {
  fingerprint: string;
  /** The newest report seen for this state (written or skipped). */
  reportedAt: string;
  /** Clock ms of the last write. */
  writtenAt: number;
}

export type MemoVerdict = 'write' | 'unchanged' | 'stale';

export class StateWriteMemo {
  private readonly entries: LRUCache<string, Remembered>;

  constructor(
    private readonly heartbeatMs: number,
    max = INSTANCE_MEMO_SIZE,
  ) {
    this.entries = new LRUCache({ max });
  }

  /**
   * 'stale' when a report at least as new was already handled, 'unchanged' when the state equals
   * the one written and its heartbeat is not due, else 'write'. An entry older than the heartbeat
   * is not trusted at all: the store decides.
   */
  verdict(key: string, fingerprint: string, reportedAt: string, now: number): MemoVerdict {
    const known = this.entries.get(key);
    if (!known || now - known.writtenAt >= heartbeatPeriod(key, this.heartbeatMs)) return 'write';
    if (reportedAt <= known.reportedAt) return 'stale';
    return fingerprint === known.fingerprint ? 'unchanged' : 'write';
  }

  wrote(key: string, fingerprint: string, reportedAt: string, now: number): void {
    this.entries.set(key, { fingerprint, reportedAt, writtenAt: now });
  }

  /** A newer report of the same state was skipped: later duplicates of it are stale. */
  skipped(key: string, reportedAt: string): void {
    const known = this.entries.get(key);
    if (known && reportedAt > known.reportedAt) known.reportedAt = reportedAt;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * The key's own heartbeat period, between ¾ and 1× `heartbeatMs` by a hash of the key: states
 * first written together (a cold start) drift apart instead of all rewriting in the same minute
 * every cycle.
 */
export function heartbeatPeriod(key: string, heartbeatMs: number): number {
  let h = 0x811c9dc5; // FNV-1a, 32 bits, then murmur3's finaliser: keys differing in their last digits spread too
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return Math.floor(heartbeatMs * (0.75 + 0.25 * ((h >>> 0) / 2 ** 32)));
}

/** A digest of a state without `reported_at` (and without samples, kept elsewhere). */
export function stateFingerprint(state: Record<string, unknown>): string {
  const { reported_at: _r, samples: _s, ...rest } = state;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 22);
}
