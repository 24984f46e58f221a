import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../lib/model/clock.js';

describe('ManualClock', () => {
  it('moves only when advanced', () => {
    const clock = new ManualClock(1_000);
    clock.advance(500);
    expect(clock.now()).toBe(1_500);
  });

  it('jumps to the end of a sleep instead of waiting', async () => {
    const clock = new ManualClock(1_000);
    await clock.sleep(30_000);
    expect(clock.now()).toBe(31_000);
  });

  it('never goes back for a negative sleep', async () => {
    const clock = new ManualClock(5_000);
    await clock.sleep(-1_000);
    expect(clock.now()).toBe(5_000);
  });

  it('refuses to advance by a negative amount', () => {
    expect(() => new ManualClock().advance(-1)).toThrow(RangeError);
  });
});

describe('systemClock', () => {
  it('stops sleeping as soon as the signal aborts', async () => {
    const stop = new AbortController();
    const slept = systemClock.sleep(60_000, stop.signal);
    stop.abort();
    await expect(slept).resolves.toBeUndefined();
  });
});
