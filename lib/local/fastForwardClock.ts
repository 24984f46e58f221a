import type { Clock } from '../model/clock.js';

/**
 * Wall-clock time that jumps ahead instead of waiting: a local run keeps real timestamps, but a
 * visibility timeout or a redelivery delay costs nothing. For the CLI's local pipeline.
 */
export class FastForwardClock implements Clock {
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  async sleep(ms: number): Promise<void> {
    if (ms > 0) this.offset += ms;
  }
}
