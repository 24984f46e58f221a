/**
 * The retry intervals of the state machine, in simulated time. The local runner zeroes them (so a
 * test runs in milliseconds); a simulation must still let the time pass, or a migration waiting for
 * a lease slot would give up at once instead of after half an hour of backoff. This follows the
 * definition's own `Retry` rules as Step Functions applies them: the first retrier whose
 * ErrorEquals matches decides; its interval grows by BackoffRate per attempt up to MaxDelaySeconds,
 * with full jitter drawn from a seeded stream; after MaxAttempts the error is caught instead.
 * Attempt counts start again each time the state is entered.
 */
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import type { Random } from './random.js';

interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: 'FULL' | 'NONE';
}

// aws-local-stepfunctions' defaults, which are Step Functions'.
const DEFAULTS = { IntervalSeconds: 1, MaxAttempts: 3, BackoffRate: 2 };

/** One execution's retry bookkeeping. */
export class RetryClock {
  private state: string | undefined;
  private attempts: number[] = [];
  private entered = true;

  constructor(
    private readonly definition: StateMachineDefinition,
    private readonly random: Random,
  ) {}

  /**
   * Records a step's end; returns how long (ms) the state machine waits before retrying it after
   * `error`, or undefined when it succeeded or the error is not retried.
   */
  afterStep(state: string, error?: unknown): number | undefined {
    if (this.entered || this.state !== state) {
      this.state = state;
      this.attempts = [];
    }
    this.entered = error === undefined;
    if (error === undefined) return undefined;
    const retriers = ((this.definition.States[state] as { Retry?: Retrier[] }).Retry ?? []) as Retrier[];
    const name = (error as { name?: unknown })?.name;
    for (let i = 0; i < retriers.length; i++) {
      const r = retriers[i];
      const matches = r.ErrorEquals.some(
        (e) => e === name || e === 'States.ALL' || e === 'States.TaskFailed',
      );
      if (!matches) continue;
      const done = this.attempts[i] ?? 0;
      if (done >= (r.MaxAttempts ?? DEFAULTS.MaxAttempts)) {
        this.entered = true;
        return undefined;
      }
      this.attempts[i] = done + 1;
      const interval =
        (r.IntervalSeconds ?? DEFAULTS.IntervalSeconds) * (r.BackoffRate ?? DEFAULTS.BackoffRate) ** done;
      const capped = Math.min(interval, r.MaxDelaySeconds ?? Number.POSITIVE_INFINITY) * 1000;
      return r.JitterStrategy === 'FULL' ? this.random() * capped : capped;
    }
    this.entered = true;
    return undefined;
  }
}
