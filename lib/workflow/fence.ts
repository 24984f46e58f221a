/**
 * Self-fencing: an agent step stops acting the moment its task may belong to someone else. The
 * agent aborts the fence's signal when Step Functions refuses a heartbeat, and the fence also
 * closes by itself once the agent's own clock says the task has timed out (no heartbeat confirmed
 * within the heartbeat timeout, the task's own timeout, or the migration's leases expired). Every
 * driver call of the step goes through the fence, so once it is closed no Nova call, drain or
 * uncordon is started: a partitioned agent cannot start os-migrateLive after another agent rolled
 * the migration back.
 */
import type { Clock } from '../model/clock.js';
import type { AgentStepDeps } from './ports.js';

/** The step's task may now run elsewhere; nothing more is done and nothing is reported. */
export class StepFencedError extends Error {
  override name = 'StepFencedError';
}

export interface StepFence {
  /** Aborted (reason: a StepFencedError) once the fence closes. */
  readonly signal: AbortSignal;
  /** Throws StepFencedError when closed, or when `closesAt` has passed on the clock. */
  check(): void;
}

export class TaskFence implements StepFence {
  private readonly controller = new AbortController();
  /** Epoch ms by which the task is lost unless the agent hears otherwise. */
  private deadlines = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sets (or moves) the time after which `what` makes the task no longer this agent's. */
  closeAt(what: string, at: number): void {
    this.deadlines.set(what, at);
  }

  close(reason: string): void {
    if (!this.controller.signal.aborted) this.controller.abort(new StepFencedError(reason));
  }

  check(): void {
    const now = this.clock.now();
    for (const [what, at] of this.deadlines) if (now >= at) this.close(`${what} passed`);
    this.controller.signal.throwIfAborted();
  }
}

/**
 * The deps with each driver behind the fence: the getters and every method call of the drivers
 * they return check it first, and the drain stops between evictions when it closes.
 */
export function fencedDeps(deps: AgentStepDeps, fence: StepFence): AgentStepDeps {
  const guard =
    <A extends unknown[], T extends object>(get: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      fence.check();
      return behindFence(await get(...args), fence);
    };
  return {
    ...deps,
    signal: fence.signal,
    nova: guard(deps.nova),
    drainer: guard(deps.drainer),
    maintenance: guard(deps.maintenance),
  };
}

function behindFence<T extends object>(driver: T, fence: StepFence): T {
  return new Proxy(driver, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        fence.check();
        return value.apply(target, args);
      };
    },
  });
}
