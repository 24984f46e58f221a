/**
 * The migration state machine, JSONPath only (aws-local-stepfunctions ignores JSONata, and the
 * tests run this very definition). Every Task passes `{step, state: $}` and puts the result under
 * its own key. Steps that touch only AWS (leases, records, the placement re-check) invoke the one
 * workflow-steps Lambda; steps that touch the operator's network (Nova, Kubernetes, Consul) are
 * tasks of one Step Functions activity, which `placid agent` polls from inside that network.
 *
 * Why an activity rather than `.waitForTaskToken` tasks fed through a queue: an activity is the
 * queue. GetActivityTask hands each task to exactly one polling worker, HeartbeatSeconds and
 * TimeoutSeconds are enforced by Step Functions itself (States.HeartbeatTimeout is then retried
 * like any other error, on whichever agent polls next), and the agent needs one outbound endpoint
 * and four IAM actions on one ARN. A token queue would add an SQS queue, a send task per step, a
 * visibility timeout to keep in step with the heartbeat, and a second place where a task can be
 * lost or doubled.
 *
 * Transient errors are retried per class with backoff; deferrals (before anything changed) go to
 * Defer and end Deferred; anything else goes to Rollback, which cleans up on an agent, records in
 * AWS and always ends in the MigrationFailed Fail state (or CleanupFailed when cleanup gave up).
 */
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import {
  Choice,
  Condition,
  Fail,
  type IActivity,
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
import { LambdaInvoke, StepFunctionsInvokeActivity } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import type { AgentStepName, CloudStepName } from '../workflow/dispatch.js';
import { DEFERRAL_ERRORS, SYSTEM_TRANSIENT_ERRORS } from '../workflow/errors.js';
import { agentTaskTimeoutSeconds, type WorkflowSettings } from '../workflow/settings.js';

/** Lambda's own throttling and service errors: never the step's fault, always worth a retry. */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.TooManyRequestsException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
] as const;

/** An agent stopped heartbeating (died, or lost the network): the task goes to the next agent that polls. */
export const AGENT_LOST_ERROR = 'States.HeartbeatTimeout';
/** No agent finished the task in its time, which also counts the wait for an agent to poll. */
export const AGENT_TIMEOUT_ERROR = 'States.Timeout';

/** How long an agent may go without a heartbeat before its task is retried elsewhere. */
export const AGENT_HEARTBEAT_SECONDS = 60;

/**
 * Polls per execution: each poll round is about 9 history events (Wait, activity task, Choice),
 * so 2,000 rounds plus lease renewals and retries stay well below Step Functions' 25,000-event
 * limit. Past it the migration is treated as overdue (OnDeadline: force-complete or abort).
 */
export const MAX_POLLS = 2_000;

type Retried =
  | (typeof SYSTEM_TRANSIENT_ERRORS)[number]
  | typeof AGENT_LOST_ERROR
  | typeof AGENT_TIMEOUT_ERROR
  | 'LambdaService'
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
  LambdaService: backoff(2, 6, 2, 60),
  // Another agent picks the task up at once; a lone agent restarting needs a little longer.
  'States.HeartbeatTimeout': backoff(5, 5, 2, 60),
  // No agent at all: only the cleanup waits (about an hour) for one to come back.
  'States.Timeout': backoff(60, 8, 1.5, 600),
};

/** The state machine's Comment (its definition's top-level `Comment`). */
export const WORKFLOW_COMMENT =
  'Placid live migration: leases, re-check, drain, live-migrate, verify, undrain, record';

export const STATE = {
  start: 'Start',
  acquire: 'AcquireLeases',
  checkPlan: 'CheckPlan',
  recheck: 'Recheck',
  drain: 'Drain',
  migrate: 'LiveMigrate',
  wait: 'WaitForMigration',
  poll: 'PollMigration',
  done: 'MigrationDone',
  renew: 'RenewLeases',
  deadline: 'OnDeadline',
  verify: 'Verify',
  undrain: 'Undrain',
  release: 'ReleaseLeases',
  record: 'RecordOutcome',
  migrated: 'Migrated',
  defer: 'Defer',
  recordDeferral: 'RecordDeferral',
  deferred: 'Deferred',
  rollback: 'Rollback',
  recordRollback: 'RecordRollback',
  recordCleanupFailure: 'RecordCleanupFailure',
  failed: 'MigrationFailed',
  cleanupFailed: 'CleanupFailed',
  invalid: 'InvalidInput',
} as const;

/**
 * The Lambda steps only read and write the store: a minute is ample. An agent step gets the drain's
 * own deadline (the longest step) plus two minutes, counted from when it is scheduled, so the wait
 * for a free agent is included.
 */
export function workflowTimeouts(settings: WorkflowSettings): {
  stepTimeout: Duration;
  agentTimeout: Duration;
} {
  return {
    stepTimeout: Duration.seconds(60),
    agentTimeout: Duration.seconds(agentTaskTimeoutSeconds(settings)),
  };
}

export interface DefinitionProps {
  stepsFunction: IFunction;
  /** The activity the agents poll for the on-premises steps. */
  agentActivity: IActivity;
  /** Longest a Lambda step may run (the Lambda's own timeout). */
  stepTimeout: Duration;
  /** Longest an agent step may take, from being scheduled (waiting for an agent included). */
  agentTimeout: Duration;
}

export function migrationDefinition(scope: Construct, props: DefinitionProps): IChainable {
  const retrying = <T extends LambdaInvoke | StepFunctionsInvokeActivity>(task: T, retried: Retried[]): T => {
    for (const error of retried) {
      const errors = error === 'LambdaService' ? [...LAMBDA_SERVICE_ERRORS] : [error];
      task.addRetry({ errors, ...RETRY_POLICY[error] });
    }
    return task;
  };
  const payload = (step: CloudStepName | AgentStepName) => ({ step, state: JsonPath.entirePayload });
  /** A step in AWS: the workflow-steps Lambda. */
  const cloud = (id: string, step: CloudStepName, resultPath: string, retried: Retried[] = []) =>
    retrying(
      new LambdaInvoke(scope, id, {
        lambdaFunction: props.stepsFunction,
        payloadResponseOnly: true,
        payload: TaskInput.fromObject(payload(step)),
        resultPath,
        taskTimeout: Timeout.duration(props.stepTimeout.plus(Duration.seconds(30))),
      }),
      ['LambdaService', ...SYSTEM_TRANSIENT_ERRORS, ...retried],
    );
  /** A step on an agent: a task of the agents' activity, heartbeated while it runs. */
  const agent = (id: string, step: AgentStepName, resultPath: string, retried: Retried[] = []) =>
    retrying(
      new StepFunctionsInvokeActivity(scope, id, {
        activity: props.agentActivity,
        parameters: payload(step),
        resultPath,
        heartbeatTimeout: Timeout.duration(Duration.seconds(AGENT_HEARTBEAT_SECONDS)),
        taskTimeout: Timeout.duration(props.agentTimeout),
      }),
      [AGENT_LOST_ERROR, ...SYSTEM_TRANSIENT_ERRORS, ...retried],
    );
  const caught = { resultPath: '$.failure' };

  const failed = new Fail(scope, STATE.failed, {
    errorPath: '$.failure.Error',
    causePath: '$.rollback.summary',
  });
  const cleanupFailed = new Fail(scope, STATE.cleanupFailed, {
    error: 'CleanupFailed',
    cause: 'rollback could not restore the node or record the outcome; see the execution history',
  });
  // The cleanup gave up: record why (leases kept), then fail; if even that fails, fail anyway.
  const recordCleanupFailure = cloud(STATE.recordCleanupFailure, 'recordRollback', '$.rollback');
  recordCleanupFailure.addCatch(cleanupFailed, { resultPath: '$.record_failure' }).next(cleanupFailed);
  const cleanupRetries: Retried[] = ['CleanupIncompleteError', AGENT_TIMEOUT_ERROR];
  const cleanupCaught = { resultPath: '$.cleanup_failure' };

  const recordRollback = cloud(STATE.recordRollback, 'recordRollback', '$.rollback');
  recordRollback.addCatch(cleanupFailed, { resultPath: '$.record_failure' }).next(failed);
  const rollback = agent(STATE.rollback, 'rollback', '$.cleanup', cleanupRetries);
  rollback.addCatch(recordCleanupFailure, cleanupCaught).next(recordRollback);

  const recordDeferral = cloud(STATE.recordDeferral, 'recordDeferral', '$.rollback');
  recordDeferral.addCatch(cleanupFailed, { resultPath: '$.record_failure' });
  recordDeferral.next(new Succeed(scope, STATE.deferred));
  const defer = agent(STATE.defer, 'defer', '$.cleanup', cleanupRetries);
  defer.addCatch(recordCleanupFailure, cleanupCaught).next(recordDeferral);

  const acquire = cloud(STATE.acquire, 'acquireLeases', '$.leases', ['LeaseBusyError'])
    .addCatch(
      new Fail(scope, STATE.invalid, { error: 'InvalidMigrationInputError', causePath: '$.failure.Cause' }),
      {
        errors: ['InvalidMigrationInputError'],
        ...caught,
      },
    )
    .addCatch(defer, { errors: [...DEFERRAL_ERRORS], ...caught })
    .addCatch(rollback, caught);
  const checkPlan = cloud(STATE.checkPlan, 'checkPlan', '$.plan_check')
    .addCatch(defer, { errors: [...DEFERRAL_ERRORS], ...caught })
    .addCatch(rollback, caught);
  const recheck = agent(STATE.recheck, 'recheck', '$.recheck')
    .addCatch(defer, { errors: [...DEFERRAL_ERRORS], ...caught })
    .addCatch(rollback, caught);
  const onPrem = (id: string, step: AgentStepName, resultPath: string, retried: Retried[] = []) =>
    agent(id, step, resultPath, retried).addCatch(rollback, caught);
  const inAws = (id: string, step: CloudStepName, resultPath: string) =>
    cloud(id, step, resultPath).addCatch(rollback, caught);

  const drain = onPrem(STATE.drain, 'drain', '$.drain');
  const migrate = onPrem(STATE.migrate, 'liveMigrate', '$.live', ['ServerBusyError']);
  const wait = new Wait(scope, STATE.wait, { time: WaitTime.secondsPath('$.live.poll_interval_seconds') });
  const poll = onPrem(STATE.poll, 'pollMigration', '$.poll');
  const renew = inAws(STATE.renew, 'renewLeases', '$.renewal');
  const onDeadline = onPrem(STATE.deadline, 'onDeadline', '$.live');
  const verify = onPrem(STATE.verify, 'verify', '$.verify', ['VerificationPendingError']);
  const undrain = onPrem(STATE.undrain, 'undrain', '$.undrain');
  const release = inAws(STATE.release, 'releaseLeases', '$.released');
  const record = inAws(STATE.record, 'recordOutcome', '$.outcome');

  const finish = verify.next(undrain).next(release).next(record).next(new Succeed(scope, STATE.migrated));
  onDeadline.next(wait);
  renew.next(wait);
  wait
    .next(poll)
    .next(
      new Choice(scope, STATE.done)
        .when(Condition.stringEquals('$.poll.phase', 'completed'), finish)
        .when(Condition.stringEquals('$.poll.phase', 'deadline'), onDeadline)
        .when(Condition.numberGreaterThanEquals('$.poll.polls', MAX_POLLS), onDeadline)
        .when(Condition.booleanEquals('$.poll.renew_due', true), renew)
        .otherwise(wait),
    );
  const start = new Pass(scope, STATE.start, {
    parameters: {
      migration: JsonPath.entirePayload,
      execution_started_at: JsonPath.stringAt('$$.Execution.StartTime'),
    },
  });
  return start.next(acquire).next(checkPlan).next(recheck).next(drain).next(migrate).next(wait);
}
