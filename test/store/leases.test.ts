import { describe, expect, it } from 'vitest';
import { NOW, useStore } from './fixtures.js';

const h = useStore();

const seconds = (s: number) => h.setNow(new Date(NOW.getTime() + s * 1000));

describe('acquireLease', () => {
  it('grants a free lease with its expiry and a first fencing token', async () => {
    // Act
    const lease = await h.store.acquireLease('free', 'worker-a', 30_000);
    // Assess
    expect(lease).toEqual({
      name: 'free',
      owner: 'worker-a',
      expires_at_ms: NOW.getTime() + 30_000,
      token: 1,
    });
  });

  it('refuses a lease another owner holds', async () => {
    // Prepare
    await h.store.acquireLease('held', 'worker-a', 30_000);
    // Act
    const lease = await h.store.acquireLease('held', 'worker-b', 30_000);
    // Assess
    expect(lease).toBeUndefined();
  });

  it('lets the holder renew, extending the expiry', async () => {
    // Prepare
    await h.store.acquireLease('renew', 'worker-a', 30_000);
    seconds(20);
    // Act
    const lease = await h.store.acquireLease('renew', 'worker-a', 30_000);
    // Assess
    expect(lease?.expires_at_ms).toBe(NOW.getTime() + 50_000);
  });

  it('lets another owner take over an expired lease with a higher token', async () => {
    // Prepare
    const first = await h.store.acquireLease('expired', 'worker-a', 30_000);
    seconds(31);
    // Act
    const second = await h.store.acquireLease('expired', 'worker-b', 30_000);
    // Assess
    expect(second?.owner).toBe('worker-b');
    expect(second?.token).toBeGreaterThan(first?.token ?? Number.POSITIVE_INFINITY);
  });

  it('grants a contested lease to exactly one of many concurrent owners', async () => {
    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.store.acquireLease('contested', `worker-${i}`, 30_000)),
    );
    // Assess
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('rejects a non-positive duration', async () => {
    // Act
    const attempt = h.store.acquireLease('bad', 'worker-a', 0);
    // Assess
    await expect(attempt).rejects.toThrow(/ttlMs must be > 0/);
  });
});

describe('releaseLease', () => {
  it('frees the lease for another owner at once', async () => {
    // Prepare
    await h.store.acquireLease('release', 'worker-a', 30_000);
    // Act
    const released = await h.store.releaseLease('release', 'worker-a');
    // Assess
    expect(released).toBe(true);
    expect(await h.store.acquireLease('release', 'worker-b', 30_000)).toMatchObject({
      owner: 'worker-b',
      token: 2,
    });
  });

  it('refuses to release a lease held by someone else', async () => {
    // Prepare
    await h.store.acquireLease('not-mine', 'worker-a', 30_000);
    // Act
    const released = await h.store.releaseLease('not-mine', 'worker-b');
    // Assess
    expect(released).toBe(false);
  });
});
