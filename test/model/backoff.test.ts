import { describe, expect, it } from 'vitest';
import { retryIdempotent } from '../../lib/drivers/retry.js';
import {
  backoffCeiling,
  backoffDelay,
  parseRetryAfter,
  type RetryPolicy,
  retrying,
} from '../../lib/model/backoff.js';

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

describe("retryIdempotent (the drivers' reads)", () => {
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
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, p))).toEqual([50, 100, 150, 150]);
  });

  it('spreads delays with jitter', () => {
    expect(backoffDelay(2, policy([], { random: () => 0 }))).toBe(0);
    expect(backoffDelay(2, policy([], { random: () => 0.25 }))).toBe(100);
  });

  it('never waits less than Retry-After, capped at the maximum delay', () => {
    const p = policy([], { random: () => 0 });
    expect([backoffDelay(0, p, 700), backoffDelay(0, p, 5_000)]).toEqual([700, 1_000]);
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

describe('retrying', () => {
  it('waits at least the Retry-After the failure carries', async () => {
    // Prepare
    const sleeps: number[] = [];
    let calls = 0;
    // Act
    const result = await retrying(
      async () => {
        calls += 1;
        if (calls < 2) throw Object.assign(new Error('slow down'), { retryAfterMs: 800 });
        return 'ok';
      },
      policy(sleeps, { random: () => 0 }),
      () => true,
      (error) => (error as { retryAfterMs?: number }).retryAfterMs,
    );
    // Assess
    expect([result, sleeps]).toEqual(['ok', [800]]);
  });

  it('gives the drivers the Retry-After of a typed error', async () => {
    // Prepare
    const sleeps: number[] = [];
    let calls = 0;
    // Act
    await retryIdempotent(
      async () => {
        calls += 1;
        if (calls < 2) throw Object.assign(new Error('busy'), { retryable: true, retryAfterMs: 900 });
      },
      policy(sleeps, { random: () => 0 }),
    );
    // Assess
    expect(sleeps).toEqual([900]);
  });
});

describe('backoffCeiling', () => {
  it('doubles from the base up to the maximum, without jitter (the eviction loop waits it whole)', () => {
    const pacing = { baseDelayMs: 1_000, maxDelayMs: 10_000 };
    expect([0, 1, 2, 3, 4, 9].map((attempt) => backoffCeiling(attempt, pacing))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ]);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it.each([
    ['delay-seconds', '120', 120_000],
    ['zero', '0', 0],
    ['a fraction', '1.5', 1_500],
    ['an HTTP date ahead', 'Tue, 01 Dec 2026 12:00:30 GMT', 30_000],
    ['an HTTP date already past', 'Tue, 01 Dec 2026 11:00:00 GMT', 0],
    ['a negative number', '-5', undefined],
    ['garbage', 'soon', undefined],
    ['blank', '  ', undefined],
    ['absent', null, undefined],
  ])('reads %s', (_case, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
