/** The handlers' one cold-start pattern: built on first use, kept, and built again after a failure. */
import { describe, expect, it } from 'vitest';
import { lazily } from '../../../functions/shared/coldStart.js';

describe('lazily', () => {
  it('builds nothing until first asked, then once for every later call, concurrent ones included', async () => {
    // Prepare
    let builds = 0;
    const deps = lazily(async () => ({ build: ++builds }));
    // Act
    const untouched = builds;
    const [a, b] = await Promise.all([deps(), deps()]);
    const c = await deps();
    // Assess
    expect(untouched).toBe(0);
    expect([a, b, c]).toEqual([{ build: 1 }, { build: 1 }, { build: 1 }]);
    expect(a).toBe(c);
  });

  it('forgets a failed build, synchronous or not, so the next call tries again', async () => {
    // Prepare
    const outcomes = [new Error('secret unreadable'), 'ready'];
    const deps = lazily(() => {
      const next = outcomes.shift();
      if (next instanceof Error) throw next;
      return next;
    });
    // Act / Assess
    await expect(deps()).rejects.toThrow('secret unreadable');
    await expect(deps()).resolves.toBe('ready');
    await expect(deps()).resolves.toBe('ready');
    expect(outcomes).toEqual([]);
  });
});
