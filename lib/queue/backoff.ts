import { type Sleep, systemClock } from '../model/clock.js';

/** How a retry loop waits: injectable so tests never sleep. */
export interface RetryTiming {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: Sleep;
  random: () => number;
}

export const DEFAULT_RETRY_TIMING: RetryTiming = {
  maxAttempts: 4,
  baseDelayMs: 50,
  maxDelayMs: 2_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

/**
 * "Full jitter" backoff: a uniform wait in [0, min(max, base·2^attempt)). Spreading retries out keeps
 * many Lambdas that were throttled together from retrying together.
 */
export function backoffDelay(attempt: number, timing: RetryTiming): number {
  const ceiling = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** attempt);
  return Math.floor(timing.random() * ceiling);
}
