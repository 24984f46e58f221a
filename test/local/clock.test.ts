import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/local/clock.js';

describe('ManualClock', () => {
  it('moves only when advanced', () => {
    const clock = new ManualClock(1_000);
    clock.advance(500);
    expect(clock.now()).toBe(1_500);
  });

  it('jumps to the deadline instead of waiting', async () => {
    const clock = new ManualClock(1_000);
    await clock.waitUntil(31_000);
    expect(clock.now()).toBe(31_000);
  });

  it('never goes back when waiting for a past time', async () => {
    const clock = new ManualClock(5_000);
    await clock.waitUntil(1_000);
    expect(clock.now()).toBe(5_000);
  });

  it('refuses to advance by a negative amount', () => {
    expect(() => new ManualClock().advance(-1)).toThrow(RangeError);
  });
});
