import { describe, expect, it } from 'vitest';
import { SimClock } from '../../lib/sim/simClock.js';

const T0 = Date.UTC(2026, 11, 1);

describe('the simulated clock', () => {
  it('releases waiting tasks in time order, each at its own time', async () => {
    const clock = new SimClock(T0);
    const seen: Array<[string, number]> = [];
    const task = (name: string, waits: number[]) =>
      clock.spawn(async () => {
        for (const w of waits) {
          await clock.sleep(w);
          seen.push([name, clock.now() - T0]);
        }
      });
    void task('a', [30_000, 30_000]);
    void task('b', [10_000, 45_000]);
    await clock.settle();
    await clock.advanceTo(T0 + 60_000);
    expect(seen).toEqual([
      ['b', 10_000],
      ['a', 30_000],
      ['b', 55_000],
      ['a', 60_000],
    ]);
  });

  it('releases tasks waiting for the same time in the order they started waiting', async () => {
    const clock = new SimClock(T0);
    const order: string[] = [];
    for (const name of ['c', 'a', 'b']) {
      void clock.spawn(async () => {
        await clock.sleep(T0 + 1_000 - clock.now());
        order.push(name);
      });
    }
    await clock.advanceTo(T0 + 1_000);
    expect(order).toEqual(['c', 'a', 'b']);
  });

  it('keeps a task waiting until the clock gets there', async () => {
    const clock = new SimClock(T0);
    let done = false;
    void clock.spawn(async () => {
      await clock.sleep(T0 + 90_000 - clock.now());
      done = true;
    });
    await clock.advanceTo(T0 + 60_000);
    const early = done;
    await clock.advanceTo(T0 + 120_000);
    expect([early, done, clock.now() - T0]).toEqual([false, true, 120_000]);
  });

  it('settles only once every task is blocked or done, even across real I/O', async () => {
    const clock = new SimClock(T0);
    let steps = 0;
    void clock.spawn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps++;
      await clock.sleep(T0 + 1 - clock.now());
      steps++;
    });
    await clock.settle();
    expect([steps, clock.running]).toEqual([1, 1]);
  });

  it('refuses to let the main loop wait on simulated time', () => {
    const clock = new SimClock(T0);
    expect(() => clock.sleep(T0 + 1 - clock.now())).toThrow(/outside a simulated task/);
  });
});
