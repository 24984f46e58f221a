/** Time as the local stand-ins see it; a `ManualClock` lets tests and simulations skip the waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `now()` has reached `epochMs`. */
  waitUntil(epochMs: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  waitUntil: (epochMs) => new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now()))),
};

/** A clock that moves only when told to; `waitUntil` jumps straight to the deadline. */
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

  async waitUntil(epochMs: number): Promise<void> {
    if (epochMs > this.current) this.current = epochMs;
  }
}
