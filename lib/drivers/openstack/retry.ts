/**
 * Retrying calls that are safe to repeat (reads) while they fail with a retryable error. Not for
 * actions like starting a migration: a timed-out POST may have taken effect, and repeating it blind
 * could start a second one. The workflow decides those after checking the state.
 */
import { type Sleep, systemClock } from '../../model/clock.js';

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injectable so tests never wait. */
  sleep: Sleep;
  /** In [0, 1); injectable so tests can pin the jitter. */
  random: () => number;
}

export const DEFAULT_DRIVER_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

/** Errors say whether retrying can help (`retryable`) and, for 429/503, how long to wait. */
interface RetryHints {
  retryable?: boolean;
  retryAfterMs?: number;
}

export function isRetryable(error: unknown): boolean {
  return (error as RetryHints | null)?.retryable === true;
}

/**
 * Full-jitter backoff: uniform in [0, min(max, base·2^attempt)), so clients that failed together
 * do not retry together; never shorter than the API's own `Retry-After` (capped at the maximum).
 */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.floor(policy.random() * ceiling);
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, policy.maxDelayMs));
}

/** Runs `operation`, retrying retryable failures with backoff; the last error is rethrown as is. */
export async function retryIdempotent<T>(
  operation: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_DRIVER_RETRY,
  retryable: (error: unknown) => boolean = isRetryable,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt + 1 >= policy.maxAttempts || !retryable(error)) throw error;
      await policy.sleep(retryDelay(attempt, policy, (error as RetryHints).retryAfterMs));
    }
  }
}
