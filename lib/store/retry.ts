/** The store's own retry defaults (unprocessed batch items, throttling that outlived the SDK's retries). */
import type { RetryPolicy } from '../model/backoff.js';
import { systemClock } from '../model/clock.js';

export type { RetryPolicy } from '../model/backoff.js';

/** `maxAttempts`: calls per batch, the first included; then the remaining items fail with BatchWriteError. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 50,
  maxDelayMs: 5_000,
  sleep: systemClock.sleep,
  random: Math.random,
};
