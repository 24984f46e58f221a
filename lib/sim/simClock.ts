/**
 * Simulated time shared by the main loop and the migration executions running beside it. An
 * execution that must wait (the poll interval the runner's Wait state skips, a retry's backoff, a
 * drain's evictions) calls `sleep` and stays blocked until the main loop moves the clock there.
 *
 * Determinism: executions are tasks (`spawn`), known through AsyncLocalStorage, and only one of them
 * runs at a time. The main loop releases waiters one by one in (time, order of waiting) order and
 * lets the released task run until it blocks again or ends (`settle`) before releasing the next; a
 * new execution runs until it first blocks before the next starts. So the same seed always
 * interleaves the same way, even though the store calls are real I/O.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../model/clock.js';

interface Task {
  id: number;
  blocked: boolean;
}

interface Waiter {
  at: number;
  order: number;
  task: Task;
  release: () => void;
}

export class SimClock implements Clock {
  private current: number;
  private readonly waiters: Waiter[] = [];
  private readonly live = new Set<Task>();
  private readonly tasks = new AsyncLocalStorage<Task>();
  private settled: Array<() => void> = [];
  private nextOrder = 0;
  private nextTask = 0;

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Blocks the calling task for `ms` of simulated time; the main loop itself may not wait. */
  sleep(ms: number): Promise<void> {
    if (!(ms > 0)) return Promise.resolve();
    const epochMs = this.current + ms;
    const task = this.tasks.getStore();
    if (!task) {
      throw new Error(
        'SimClock.sleep called outside a simulated task: only executions wait on simulated time',
      );
    }
    return new Promise((release) => {
      this.waiters.push({ at: epochMs, order: this.nextOrder++, task, release });
      task.blocked = true;
      this.checkSettled();
    });
  }

  /** Runs `work` as a task; resolves or rejects with it (callers keep the promise). */
  spawn<T>(work: () => Promise<T>): Promise<T> {
    const task: Task = { id: this.nextTask++, blocked: false };
    this.live.add(task);
    return this.tasks.run(task, async () => {
      try {
        return await work();
      } finally {
        this.live.delete(task);
        this.checkSettled();
      }
    });
  }

  /** Resolves once every live task is blocked on the clock (or none is left). */
  settle(): Promise<void> {
    return new Promise((resolve) => {
      this.settled.push(resolve);
      this.checkSettled();
    });
  }

  /** Moves the clock to `target`, releasing each waiter due by then in order and letting it run. */
  async advanceTo(target: number): Promise<void> {
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.waiters.splice(this.waiters.indexOf(next), 1);
      this.current = Math.max(this.current, next.at);
      next.task.blocked = false;
      next.release();
      await this.settle();
    }
    this.current = Math.max(this.current, target);
  }

  /** Tasks still running or waiting. */
  get running(): number {
    return this.live.size;
  }

  /** The earliest time a task waits for, if any. */
  nextWake(): number | undefined {
    let best: number | undefined;
    for (const w of this.waiters) if (best === undefined || w.at < best) best = w.at;
    return best;
  }

  private nextDue(target: number): Waiter | undefined {
    let best: Waiter | undefined;
    for (const w of this.waiters) {
      if (w.at > target) continue;
      if (!best || w.at < best.at || (w.at === best.at && w.order < best.order)) best = w;
    }
    return best;
  }

  private checkSettled(): void {
    for (const task of this.live) if (!task.blocked) return;
    const waiting = this.settled;
    this.settled = [];
    for (const resolve of waiting) resolve();
  }
}
