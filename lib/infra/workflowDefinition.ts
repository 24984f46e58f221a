/**
 * The migration state machine, JSONPath only (aws-local-stepfunctions ignores JSONata, and the
 * tests run this very definition). Every Task invokes the one workflow-steps Lambda with
 * `{step, state: $}` and puts the result under its own key. Transient errors are retried per class
 * with backoff; deferrals (before anything changed) go to Defer and end Deferred; anything else goes
 * to Rollback, which cleans up and always ends in the MigrationFailed Fail state.
 */
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  Choice,
  Condition,
  Fail,
  type IChainable,
  JitterType,
  JsonPath,
  Pass,
  type RetryProps,
  Succeed,
  TaskInput,
  Timeout,
  Wait,
  WaitTime,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import type { StepName } from '../workflow/dispatch.js';
import { DEFERRAL_ERRORS, SYSTEM_TRANSIENT_ERRORS } from '../workflow/errors.js';

type Retried =
  | (typeof SYSTEM_TRANSIENT_ERRORS)[number]
  | 'LeaseBusyError'
  | 'ServerBusyError'
  | 'VerificationPendingError'
  | 'CleanupIncompleteError';

const backoff = (
  seconds: number,
  maxAttempts: number,
  rate: number,
  maxDelaySeconds: number,
): RetryProps => ({
  interval: Duration.seconds(seconds),
  maxAttempts,
  backoffRate: rate,
  maxDelay: Duration.seconds(maxDelaySeconds),
  jitterStrategy: JitterType.FULL,
});

/** One retrier per error class, so each keeps its own attempt count. */
export const RETRY_POLICY: Record<Retried, RetryProps> = {
  NovaUnavailableError: backoff(5, 6, 2, 120),
  KubernetesUnavailableError: backoff(5, 6, 2, 120),
  ConsulUnavailableError: backoff(5, 6, 2, 120),
  StoreUnavailableError: backoff(1, 6, 2, 30),
  // Nova's 409: another task on the server usually ends within minutes.
  ServerBusyError: backoff(15, 5, 2, 300),
  // Slots free up as other migrations finish; after ~30 min of waiting, defer.
  LeaseBusyError: backoff(30, 10, 1.5, 300),
  VerificationPendingError: backoff(10, 6, 1.5, 120),
  // A node left cordoned is worse than a slow cleanup: keep trying for about an hour.
  CleanupIncompleteError: backoff(30, 10, 2, 600),
};

export const STATE = {
  start: 'Start',
  acquire: 'AcquireLeases',
  recheck: 'Recheck',
  drain: 'Drain',
  migrate: 'LiveMigrate',
  wait: 'WaitForMigration',
  poll: 'PollMigration',
  done: 'MigrationDone',
  deadline: 'OnDeadline',
  verify: 'Verify',
  undrain: 'Undrain',
  release: 'ReleaseLeases',
  record: 'RecordOutcome',
  migrated: 'Migrated',
  defer: 'Defer',
  deferred: 'Deferred',
  rollback: 'Rollback',
  failed: 'MigrationFailed',
  cleanupFailed: 'CleanupFailed',
  invalid: 'InvalidInput',
} as const;

export interface DefinitionProps {
  stepsFunction: IFunction;
  /** Longest a step may run (the Lambda's own timeout). */
  stepTimeout: Duration;
}

export function migrationDefinition(scope: Construct, props: DefinitionProps): IChainable {
  const task = (id: string, step: StepName, resultPath: string, retried: Retried[] = []) => {
    const invoke = new LambdaInvoke(scope, id, {
      lambdaFunction: props.stepsFunction,
      payloadResponseOnly: true,
      payload: TaskInput.fromObject({ step, state: JsonPath.entirePayload }),
      resultPath,
      taskTimeout: Timeout.duration(props.stepTimeout.plus(Duration.seconds(30))),
    });
    for (const error of [...SYSTEM_TRANSIENT_ERRORS, ...retried]) {
      invoke.addRetry({ errors: [error], ...RETRY_POLICY[error] });
    }
    return invoke;
  };
  const caught = { resultPath: '$.failure' };

  const failed = new Fail(scope, STATE.failed, {
    errorPath: '$.failure.Error',
    causePath: '$.rollback.summary',
  });
  const cleanupFailed = new Fail(scope, STATE.cleanupFailed, {
    error: 'CleanupFailed',
    cause: 'rollback could not restore the node or record the outcome; see the execution history',
  });
  const rollback = task(STATE.rollback, 'rollback', '$.rollback', ['CleanupIncompleteError']);
  rollback.addCatch(cleanupFailed, { resultPath: '$.cleanup_failure' }).next(failed);
  const defer = task(STATE.defer, 'defer', '$.rollback', ['CleanupIncompleteError']);
  defer.addCatch(cleanupFailed, { resultPath: '$.cleanup_failure' }).next(new Succeed(scope, STATE.deferred));

  const acquire = task(STATE.acquire, 'acquireLeases', '$.leases', ['LeaseBusyError'])
    .addCatch(
      new Fail(scope, STATE.invalid, { error: 'InvalidMigrationInputError', causePath: '$.failure.Cause' }),
      {
        errors: ['InvalidMigrationInputError'],
        ...caught,
      },
    )
    .addCatch(defer, { errors: [...DEFERRAL_ERRORS], ...caught })
    .addCatch(rollback, caught);
  const recheck = task(STATE.recheck, 'recheck', '$.recheck')
    .addCatch(defer, { errors: [...DEFERRAL_ERRORS], ...caught })
    .addCatch(rollback, caught);
  const rest = (id: string, step: StepName, resultPath: string, retried: Retried[] = []) =>
    task(id, step, resultPath, retried).addCatch(rollback, caught);

  const drain = rest(STATE.drain, 'drain', '$.drain');
  const migrate = rest(STATE.migrate, 'liveMigrate', '$.live', ['ServerBusyError']);
  const wait = new Wait(scope, STATE.wait, { time: WaitTime.secondsPath('$.live.poll_interval_seconds') });
  const poll = rest(STATE.poll, 'pollMigration', '$.poll');
  const onDeadline = rest(STATE.deadline, 'onDeadline', '$.live');
  const verify = rest(STATE.verify, 'verify', '$.verify', ['VerificationPendingError']);
  const undrain = rest(STATE.undrain, 'undrain', '$.undrain');
  const release = rest(STATE.release, 'releaseLeases', '$.released');
  const record = rest(STATE.record, 'recordOutcome', '$.outcome');

  const finish = verify.next(undrain).next(release).next(record).next(new Succeed(scope, STATE.migrated));
  onDeadline.next(wait);
  wait
    .next(poll)
    .next(
      new Choice(scope, STATE.done)
        .when(Condition.stringEquals('$.poll.phase', 'completed'), finish)
        .when(Condition.stringEquals('$.poll.phase', 'deadline'), onDeadline)
        .otherwise(wait),
    );
  const start = new Pass(scope, STATE.start, {
    parameters: {
      migration: JsonPath.entirePayload,
      execution_started_at: JsonPath.stringAt('$$.Execution.StartTime'),
    },
  });
  return start.next(acquire).next(recheck).next(drain).next(migrate).next(wait);
}
