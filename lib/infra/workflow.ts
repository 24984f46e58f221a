/**
 * The migration workflow: the Standard state machine (lib/infra/workflowDefinition.ts) with full
 * logging and tracing, the one workflow-steps Lambda its tasks invoke, and the plan starter that
 * consumes the plan queue. One steps Lambda rather than one per step: every step after the first
 * two needs the same drivers and secrets (rollback touches Nova, Kubernetes, Consul and the store),
 * so per-step roles would barely narrow anything, while one bundle keeps one warm pool of
 * containers with their Keystone token and connections. The plan queue is created here unless given.
 */
import { CfnOutput, Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PLAN_STARTER_ENV } from '../../functions/planStarter/env.js';
import {
  parseWorkflowSettings,
  WORKFLOW_SETTINGS_ENV,
  type WorkflowSettingsInput,
} from '../workflow/settings.js';
import type { PlacidConfig } from './config.js';
import type { Observability } from './observability.js';
import { type Queues, visibilityFor } from './queues.js';
import { RUNTIME_ENV } from './runtimeEnv.js';
import type { ServiceSecrets } from './secrets.js';
import { ServiceFunction } from './serviceFunction.js';
import type { ServiceQueue } from './serviceQueue.js';
import type { TableAccess, Tables } from './tables.js';
import { WorkflowAlarms } from './workflowAlarms.js';
import { migrationDefinition } from './workflowDefinition.js';
import { acknowledgeWorkflowFindings } from './workflowFindings.js';

export const WORKFLOW_STEPS_ENTRY = 'functions/workflow/handler.ts';
export const PLAN_STARTER_ENTRY = 'functions/planStarter/handler.ts';
export const WORKFLOW_SERVICE_NAMES = {
  steps: 'placid-workflow',
  planStarter: 'placid-plan-starter',
} as const;

/** Leases (conditional updates), migration records, last-migrated time, steal samples, host snapshot. */
export const WORKFLOW_TABLE_ACCESS: TableAccess = {
  leases: ['UpdateItem'],
  migrations: ['PutItem'],
  instances: ['GetItem', 'UpdateItem'],
  samples: ['Query'],
  hosts: ['GetItem', 'Scan', 'Query'],
};

const STARTER_TIMEOUT_SECONDS = 60;

export interface MigrationWorkflowProps {
  readonly config: PlacidConfig;
  readonly tables: Tables;
  readonly queues: Queues;
  readonly secrets: ServiceSecrets;
  readonly observability: Observability;
  /** Where the planner sends migrations; created (and watched) here when absent. */
  readonly planQueue?: ServiceQueue;
  /**
   * Deadline factor, concurrency, drain options… (the `placid:workflowSettings` context value);
   * validated at synth, passed to the steps as JSON. Every default when absent.
   */
  readonly settings?: WorkflowSettingsInput;
}

export class MigrationWorkflow extends Construct {
  readonly stepsFunction: ServiceFunction;
  readonly starterFunction: ServiceFunction;
  readonly stateMachine: StateMachine;
  readonly planQueue: ServiceQueue;

  constructor(scope: Construct, id: string, props: MigrationWorkflowProps) {
    super(scope, id);
    const { config, tables, secrets, observability } = props;
    const settings = parseWorkflowSettings(props.settings ?? {}, 'placid:workflowSettings');
    const logRetention = config.logRetentionDays as RetentionDays;
    // A drain runs inside one invocation: a minute beyond its own deadline.
    const stepTimeout = Duration.seconds(Math.min(900, settings.drain_timeout_seconds + 60));

    this.stepsFunction = new ServiceFunction(this, 'StepsFunction', {
      entry: WORKFLOW_STEPS_ENTRY,
      serviceName: WORKFLOW_SERVICE_NAMES.steps,
      description: 'Runs one step of a live migration: leases, drain, Nova, undrain, records',
      timeout: stepTimeout,
      memorySize: 1024,
      logRetention,
      environment: {
        ...tables.environment(WORKFLOW_TABLE_ACCESS),
        [WORKFLOW_SETTINGS_ENV]: JSON.stringify(props.settings ?? {}),
        ...(config.schedulerConfig ? { [RUNTIME_ENV.schedulerConfig]: config.schedulerConfig } : {}),
      },
    });
    tables.grant(this.stepsFunction, WORKFLOW_TABLE_ACCESS);
    for (const which of ['nova', 'kubernetes', 'consul'] as const) {
      for (const [name, value] of Object.entries(secrets.grantRead(this.stepsFunction, which))) {
        this.stepsFunction.addEnvironment(name, value);
      }
    }

    const executionLogs = new LogGroup(this, 'ExecutionLogs', { retention: logRetention });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.STANDARD,
      comment: 'Placid live migration: leases, re-check, drain, live-migrate, verify, undrain, record',
      definitionBody: DefinitionBody.fromChainable(
        migrationDefinition(this, { stepsFunction: this.stepsFunction, stepTimeout }),
      ),
      logs: {
        destination: executionLogs,
        level: LogLevel.ALL,
        includeExecutionData: true,
      },
      tracingEnabled: true,
    });

    this.planQueue = props.planQueue ?? props.queues.add('Plans', visibilityFor(STARTER_TIMEOUT_SECONDS));
    this.starterFunction = this.planStarter(props, settings.max_concurrent_migrations);
    new WorkflowAlarms(this, 'Alarms', {
      observability,
      stateMachine: this.stateMachine,
      executionLogs,
      stepsServiceName: WORKFLOW_SERVICE_NAMES.steps,
    });
    // Step errors are how the state machine learns to retry, defer or roll back: alarming on
    // each would be noise; the execution alarms above report what the errors led to.
    observability.watchFunction('WorkflowSteps', this.stepsFunction, { alarmOnErrors: false });
    observability.watchFunction('PlanStarter', this.starterFunction);
    if (!props.planQueue) observability.watchQueue('Plans', this.planQueue);
    acknowledgeWorkflowFindings(this);
    new CfnOutput(this, 'PlanQueueUrl', {
      value: this.planQueue.queue.queueUrl,
      description: 'The planner sends one message per migration here',
    });
    new CfnOutput(this, 'StateMachineArn', {
      value: this.stateMachine.stateMachineArn,
      description: 'Migration executions (named after their migration id)',
    });
  }

  private planStarter(props: MigrationWorkflowProps, maxConcurrent: number): ServiceFunction {
    const fn = new ServiceFunction(this, 'PlanStarterFunction', {
      entry: PLAN_STARTER_ENTRY,
      serviceName: WORKFLOW_SERVICE_NAMES.planStarter,
      description: 'Starts one migration execution per plan message, within the concurrency limit',
      timeout: Duration.seconds(STARTER_TIMEOUT_SECONDS),
      memorySize: 256,
      logRetention: props.config.logRetentionDays as RetentionDays,
      environment: {
        [PLAN_STARTER_ENV.stateMachineArn]: this.stateMachine.stateMachineArn,
        [PLAN_STARTER_ENV.deadLetterQueueUrl]: this.planQueue.deadLetterQueue.queueUrl,
        [PLAN_STARTER_ENV.maxConcurrent]: String(maxConcurrent),
      },
    });
    fn.addEventSource(
      new SqsEventSource(this.planQueue.queue, {
        batchSize: 10,
        // Two starters at most: each counts running executions before starting more.
        maxConcurrency: 2,
        reportBatchItemFailures: true,
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:StartExecution', 'states:ListExecutions'],
        resources: [this.stateMachine.stateMachineArn],
      }),
    );
    for (const statement of this.planQueue.deadLetterSendStatements()) fn.addToRolePolicy(statement);
    return fn;
  }
}
