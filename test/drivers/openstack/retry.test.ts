import { describe, expect, it } from 'vitest';
import { type RetryPolicy, retryDelay, retryIdempotent } from '../../../lib/drivers/openstack/retry.js';

function policy(sleeps: number[], overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    maxAttempts: 4,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.999,
    ...overrides,
  };
}

const retryable = Object.assign(new Error('busy'), { retryable: true });

describe('retryIdempotent', () => {
  it('returns the first success after retryable failures', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const result = await retryIdempotent(async () => {
      calls += 1;
      if (calls < 3) throw retryable;
      return 'ok';
    }, policy(sleeps));
    expect([result, calls]).toEqual(['ok', 3]);
  });

  it('does not retry an error that is not retryable', async () => {
    let calls = 0;
    const failing = retryIdempotent(async () => {
      calls += 1;
      throw new Error('bad request');
    }, policy([]));
    await expect(failing).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });

  it('doubles the backoff ceiling each attempt, up to the maximum', () => {
    const p = policy([], { random: () => 0.5, maxDelayMs: 300 });
    expect([0, 1, 2, 3].map((attempt) => retryDelay(attempt, p))).toEqual([50, 100, 150, 150]);
  });

  it('spreads delays with jitter', () => {
    expect(retryDelay(2, policy([], { random: () => 0 }))).toBe(0);
    expect(retryDelay(2, policy([], { random: () => 0.25 }))).toBe(100);
  });

  it('never waits less than Retry-After, capped at the maximum delay', () => {
    const p = policy([], { random: () => 0 });
    expect([retryDelay(0, p, 700), retryDelay(0, p, 5_000)]).toEqual([700, 1_000]);
  });

  it('stops after maxAttempts and rethrows the last error', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const failing = retryIdempotent(
      async () => {
        calls += 1;
        throw retryable;
      },
      policy(sleeps, { maxAttempts: 3 }),
    );
    await expect(failing).rejects.toBe(retryable);
    expect([calls, sleeps.length]).toEqual([3, 2]);
  });
});
