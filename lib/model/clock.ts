/**
 * The one time port. Everything that reads the time or waits takes a `Clock`, so tests and the
 * simulation can run hours of backoff, polling and deadlines without waiting for any of it.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves once `ms` of this clock's time has passed (at once for `ms <= 0`), or as soon as
   * `signal` aborts: a loop told to stop should stop waiting, and checks its own flag after.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** How a retry loop waits; the `sleep` of a `Clock`. */
export type Sleep = Clock['sleep'];

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => realSleep(ms, signal),
};

function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** A clock that moves only when told to; `sleep` jumps straight to the end of the wait. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.current += ms;
  }

  async sleep(ms: number): Promise<void> {
    if (ms > 0) this.current += ms;
  }
}
