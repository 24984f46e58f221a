/**
 * The drivers' retries of calls that are safe to repeat (reads), by Placid's one backoff and one
 * failure classification (lib/model). Not for actions like starting a migration: a timed-out POST
 * may have taken effect, and repeating it blind could start a second one. The workflow decides
 * those after checking the state.
 */
import { type RetryPolicy, retrying } from '../model/backoff.js';
import { systemClock } from '../model/clock.js';
import { isRetryable, retryAfterOf } from '../model/failure.js';

export type { RetryPolicy } from '../model/backoff.js';

export const DEFAULT_DRIVER_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

/**
 * Runs `operation`, retrying retryable failures with backoff, never sooner than an API's own
 * `Retry-After`; the last error is rethrown as is.
 */
export function retryIdempotent<T>(
  operation: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_DRIVER_RETRY,
): Promise<T> {
  return retrying(operation, policy, isRetryable, retryAfterOf);
}
