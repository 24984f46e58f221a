/**
 * Placid's one backoff: the store's batch retries, the queue's sends, the drivers' idempotent reads
 * and the Kubernetes eviction loop all wait by it. Timing is injectable, so tests never sleep.
 */

import type { Sleep } from './clock.js';

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Clock's `sleep` (lib/model/clock.ts): tests and the simulation never wait. */
  sleep: Sleep;
  /** In [0, 1); injectable so tests can pin the jitter. */
  random: () => number;
}

/** The longest wait before retry `attempt` (0-based): doubling from the base, capped at the maximum. */
export function backoffCeiling(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}

/**
 * "Full jitter": a uniform wait in [0, ceiling), so clients that failed together do not retry
 * together; never shorter than the remote end's own `Retry-After` (itself capped at the maximum).
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
  retryAfterMs?: number,
): number {
  const jittered = Math.floor(policy.random() * backoffCeiling(attempt, policy));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, policy.maxDelayMs));
}

/**
 * Runs `operation`, retrying while `retryable(error)` with backoff (and any `Retry-After` the error
 * carries); the last error is rethrown as is. Only for calls that are safe to repeat: a timed-out
 * POST may have taken effect, and repeating it blind could act twice.
 */
export async function retrying<T>(
  operation: () => Promise<T>,
  policy: RetryPolicy,
  retryable: (error: unknown) => boolean,
  retryAfter: (error: unknown) => number | undefined = () => undefined,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt + 1 >= policy.maxAttempts || !retryable(error)) throw error;
      await policy.sleep(backoffDelay(attempt, policy, retryAfter(error)));
    }
  }
}

/**
 * An HTTP `Retry-After` value in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3),
 * measured from `nowMs`; undefined when absent or unreadable, 0 for a date already past.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
