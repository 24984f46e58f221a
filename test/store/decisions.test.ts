import { describe, expect, it } from 'vitest';
import { NOW, useStore } from './fixtures.js';

const h = useStore();

describe('putDecision and getDecision', () => {
  it('records a decision with its explanation and time', async () => {
    // Prepare
    const decision = {
      hosts: ['cmp1'],
      explanation: ['RamFilter removed cmp2: 512 MB free, 1024 MB requested'],
    };
    // Act
    const created = await h.store.putDecision('req-1', decision);
    // Assess
    expect(created).toBe(true);
    expect(await h.store.getDecision('req-1')).toEqual({
      request_id: 'req-1',
      decided_at: NOW.toISOString(),
      decision,
    });
  });

  it('keeps the first decision when a redelivered request is decided again', async () => {
    // Prepare
    await h.store.putDecision('req-2', { hosts: ['first'] });
    // Act
    const created = await h.store.putDecision('req-2', { hosts: ['second'] });
    // Assess
    expect(created).toBe(false);
    expect((await h.store.getDecision('req-2'))?.decision).toEqual({ hosts: ['first'] });
  });

  it('returns undefined for a request never decided', async () => {
    // Act
    const record = await h.store.getDecision('req-none');
    // Assess
    expect(record).toBeUndefined();
  });
});
