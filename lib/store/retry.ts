/** Backoff for the store's own retries (unprocessed batch items, throttling that outlived the SDK's retries). */
import { type Sleep, systemClock } from '../model/clock.js';

export interface RetryPolicy {
  /** Calls per batch, the first included; then the remaining items fail with BatchWriteError. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injectable so tests need not wait. */
  sleep: Sleep;
  /** In [0, 1); injectable so tests can pin the jitter. */
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 50,
  maxDelayMs: 5_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

/**
 * "Full jitter": a uniform delay in [0, min(cap, base * 2^attempt)). Spreading retries over the
 * whole window keeps many throttled writers from retrying in lock-step.
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);

/** True for DynamoDB's "slow down" errors, which are safe to retry after a pause. */
export function isThrottling(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const retryable = (error as { $retryable?: { throttling?: boolean } }).$retryable;
  return THROTTLING_ERRORS.has(error.name) || retryable?.throttling === true;
}

/** True when a conditional write's condition did not hold (an expected outcome, not a failure). */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
