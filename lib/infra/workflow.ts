/**
 * The migration workflow: the Standard state machine (lib/infra/workflowDefinition.ts) with full
 * logging and tracing, the one workflow-steps Lambda its AWS-side tasks invoke (leases, records,
 * the placement re-check: the store only, no network route to the operator), the activity its
 * on-premises tasks go to (polled by `placid agent` inside the operator's network), the agents'
 * policy and role, and the plan starter that consumes the plan queue. The plan queue is created
 * here unless given.
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Activity,
  DefinitionBody,
  LogLevel,
  StateMachine,
  StateMachineType,
} from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PLAN_STARTER_ENV } from '../../functions/planStarter/env.js';
import { planQueueMaxReceives } from '../workflow/planQueueRetry.js';
import {
  parseWorkflowSettings,
  WORKFLOW_SETTINGS_ENV,
  type WorkflowSettingsInput,
} from '../workflow/settings.js';
import { AgentAccess } from './agentAccess.js';
import { type PlacidConfig, rolesAnywhereOf } from './config.js';
import { planTtlMinutesOf } from './contextJson.js';
import { watchAgents } from './edgeAlarms.js';
import type { Observability } from './observability.js';
import { type Queues, visibilityFor } from './queues.js';
import { RUNTIME_ENV } from './runtimeEnv.js';
import type { ServiceSecrets } from './secrets.js';
import { ServiceFunction } from './serviceFunction.js';
import { QUEUE_RETENTION, type ServiceQueue } from './serviceQueue.js';
import type { TableAccess, Tables } from './tables.js';
import { WorkflowAlarms } from './workflowAlarms.js';
import { migrationDefinition, WORKFLOW_COMMENT, workflowTimeouts } from './workflowDefinition.js';
import { acknowledgeWorkflowFindings } from './workflowFindings.js';

export const WORKFLOW_STEPS_ENTRY = 'functions/workflow/handler.ts';
export const PLAN_STARTER_ENTRY = 'functions/planStarter/handler.ts';
export const WORKFLOW_SERVICE_NAMES = {
  steps: 'placid-workflow',
  planStarter: 'placid-plan-starter',
} as const;

/**
 * Leases (conditional updates), migration records, last-migrated time, steal samples, host snapshot.
 * The agents have none of this: their steps get what they need in the execution state.
 */
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
  /** Where the agents send the collector's reports (the ingest queue). */
  readonly ingestQueue: ServiceQueue;
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
  /** The on-premises steps' tasks: `placid agent` polls it. */
  readonly agentActivity: Activity;
  readonly agents: AgentAccess;

  constructor(scope: Construct, id: string, props: MigrationWorkflowProps) {
    super(scope, id);
    const { config, tables, secrets, observability } = props;
    const settings = parseWorkflowSettings(props.settings ?? {}, 'placid:workflowSettings');
    const logRetention = config.logRetentionDays as RetentionDays;
    const { stepTimeout, agentTimeout } = workflowTimeouts(settings);

    this.stepsFunction = new ServiceFunction(this, 'StepsFunction', {
      entry: WORKFLOW_STEPS_ENTRY,
      serviceName: WORKFLOW_SERVICE_NAMES.steps,
      description: 'Runs the AWS-side steps of a live migration: leases, placement re-check, records',
      timeout: stepTimeout,
      memorySize: 512,
      logRetention,
      environment: {
        ...tables.environment(WORKFLOW_TABLE_ACCESS),
        [WORKFLOW_SETTINGS_ENV]: JSON.stringify(props.settings ?? {}),
        ...(config.schedulerConfig ? { [RUNTIME_ENV.schedulerConfig]: config.schedulerConfig } : {}),
      },
    });
    tables.grant(this.stepsFunction, WORKFLOW_TABLE_ACCESS);
    this.agentActivity = new Activity(this, 'AgentSteps', {});
    this.agents = new AgentAccess(this, 'Agents', {
      activity: this.agentActivity,
      ingestQueue: props.ingestQueue,
      secrets,
      rolesAnywhere: rolesAnywhereOf(config, 'agent'),
    });

    const executionLogs = new LogGroup(this, 'ExecutionLogs', { retention: logRetention });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.STANDARD,
      comment: WORKFLOW_COMMENT,
      definitionBody: DefinitionBody.fromChainable(
        migrationDefinition(this, {
          stepsFunction: this.stepsFunction,
          agentActivity: this.agentActivity,
          stepTimeout,
          agentTimeout,
        }),
      ),
      logs: {
        destination: executionLogs,
        level: LogLevel.ALL,
        includeExecutionData: true,
      },
      tracingEnabled: true,
    });

    this.planQueue = props.planQueue ?? this.addPlanQueue(props);
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
    watchAgents(observability, this.agentActivity);
    observability.watchFunction('PlanStarter', this.starterFunction);
    if (!props.planQueue) observability.watchQueue('Plans', this.planQueue);
    acknowledgeWorkflowFindings(this);
    // At stack level, so each output's name is the one the docs and `placid agent --help` use
    // (`AgentActivityArn`), not a construct path with a hash (`WorkflowAgentActivityArn58FC0987`).
    const stack = Stack.of(this);
    new CfnOutput(stack, 'PlanQueueUrl', {
      value: this.planQueue.queue.queueUrl,
      description: 'The planner sends one message per migration here',
    });
    new CfnOutput(stack, 'AgentActivityArn', {
      value: this.agentActivity.activityArn,
      description: 'placid agent: activity_arn (the on-premises steps)',
    });
    new CfnOutput(stack, 'AgentPolicyArn', {
      value: this.agents.policy.managedPolicyArn,
      description: 'Attach to the identity placid agent runs as (activity, ingest queue, driver secrets)',
    });
    new CfnOutput(stack, 'StateMachineArn', {
      value: this.stateMachine.stateMachineArn,
      description: 'Migration executions (named after their migration id)',
    });
  }

  /** Its messages wait for a slot by coming back: enough receives to outlive the plan's TTL. */
  private addPlanQueue(props: MigrationWorkflowProps): ServiceQueue {
    const visibility = visibilityFor(STARTER_TIMEOUT_SECONDS);
    const maxReceives = planQueueMaxReceives({
      planTtlMinutes: planTtlMinutesOf(props.config.rebalance),
      failureReceives: props.config.maxReceiveCount,
      retentionSeconds: QUEUE_RETENTION.toSeconds(),
    });
    return props.queues.add('Plans', visibility, maxReceives);
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
        [PLAN_STARTER_ENV.planQueueUrl]: this.planQueue.queue.queueUrl,
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
    // The starter shortens a waiting message's visibility itself. The event source's consume grant
    // includes the action too, but stating it here keeps it when that grant changes.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sqs:ChangeMessageVisibility'],
        resources: [this.planQueue.queue.queueArn],
      }),
    );
    for (const statement of this.planQueue.deadLetterSendStatements()) fn.addToRolePolicy(statement);
    return fn;
  }
}
