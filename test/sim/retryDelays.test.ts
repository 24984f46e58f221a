import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { RetryClock } from '../../lib/sim/retryDelays.js';

const DEFINITION = {
  StartAt: 'Acquire',
  States: {
    Acquire: {
      Type: 'Task',
      Resource: 'arn:aws:lambda:us-east-1:123456789012:function:steps',
      Retry: [
        { ErrorEquals: ['NovaUnavailableError'], IntervalSeconds: 5, MaxAttempts: 2, BackoffRate: 2 },
        {
          ErrorEquals: ['LeaseBusyError'],
          IntervalSeconds: 30,
          MaxAttempts: 4,
          BackoffRate: 1.5,
          MaxDelaySeconds: 60,
        },
      ],
      End: true,
    },
    Jittered: {
      Type: 'Task',
      Resource: 'arn:aws:lambda:us-east-1:123456789012:function:steps',
      Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 10, MaxAttempts: 1, JitterStrategy: 'FULL' }],
      End: true,
    },
  },
} as unknown as StateMachineDefinition;

const error = (name: string) => Object.assign(new Error(name), { name });

describe('retry intervals in simulated time', () => {
  it('grows by the backoff rate up to the maximum delay, then gives up', () => {
    const retries = new RetryClock(DEFINITION, () => 0.5);
    const delays = Array.from({ length: 5 }, () => retries.afterStep('Acquire', error('LeaseBusyError')));
    expect(delays).toEqual([30_000, 45_000, 60_000, 60_000, undefined]);
  });

  it('counts attempts per retrier', () => {
    const retries = new RetryClock(DEFINITION, () => 0.5);
    const delays = [
      retries.afterStep('Acquire', error('NovaUnavailableError')),
      retries.afterStep('Acquire', error('LeaseBusyError')),
      retries.afterStep('Acquire', error('NovaUnavailableError')),
      retries.afterStep('Acquire', error('NovaUnavailableError')),
    ];
    expect(delays).toEqual([5_000, 30_000, 10_000, undefined]);
  });

  it('does not wait for an error no retrier matches', () => {
    expect(new RetryClock(DEFINITION, () => 0.5).afterStep('Acquire', error('VmMovedError'))).toBeUndefined();
  });

  it('starts counting again when the state is entered again after a success', () => {
    const retries = new RetryClock(DEFINITION, () => 0.5);
    retries.afterStep('Acquire', error('NovaUnavailableError'));
    retries.afterStep('Acquire', error('NovaUnavailableError'));
    retries.afterStep('Acquire');
    expect(retries.afterStep('Acquire', error('NovaUnavailableError'))).toBe(5_000);
  });

  it('draws full jitter from its random source', () => {
    expect(new RetryClock(DEFINITION, () => 0.25).afterStep('Jittered', error('Anything'))).toBe(2_500);
  });
});
