/**
 * The schedule stage: one core, two entry points (functions/schedule). The queue consumer records
 * each decision and sends it to the reply queue; the HTTP one answers synchronously behind a
 * Function URL with AWS_IAM auth. `clientPolicy` is what a caller attaches to use either.
 */
import { Duration } from 'aws-cdk-lib';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type FunctionUrl, FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';
import { RUNTIME_ENV, SERVICE_NAMES } from './runtimeEnv.js';
import { ServiceFunction, type ServiceFunctionProps } from './serviceFunction.js';
import type { ServiceQueue } from './serviceQueue.js';
import type { TableAccess, Tables } from './tables.js';

export const SCHEDULE_QUEUE_ENTRY = 'functions/schedule/queueHandler.ts';
export const SCHEDULE_HTTP_ENTRY = 'functions/schedule/urlHandler.ts';

/**
 * Snapshot reads (full scan, then the change index), claims as conditional updates on host items,
 * instances by host (server-group and affinity filters), and one decision record per request.
 */
export const SCHEDULE_TABLE_ACCESS: TableAccess = {
  hosts: ['GetItem', 'Scan', 'Query', 'UpdateItem'],
  instances: ['GetItem', 'Query'],
  decisions: ['GetItem', 'PutItem'],
};

export interface ScheduleStageProps {
  readonly config: PlacidConfig;
  readonly tables: Tables;
  readonly requests: ServiceQueue;
  readonly replies: ServiceQueue;
}

export class ScheduleStage extends Construct {
  readonly queueFunction: ServiceFunction;
  readonly httpFunction: ServiceFunction;
  readonly url: FunctionUrl;
  /** Attach to a caller: invoke the URL, send requests, read replies. */
  readonly clientPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: ScheduleStageProps) {
    super(scope, id);
    const { config, tables, requests, replies } = props;
    const common: Omit<ServiceFunctionProps, 'entry' | 'serviceName' | 'description'> = {
      timeout: Duration.seconds(config.scheduleTimeoutSeconds),
      memorySize: config.scheduleMemoryMb,
      logRetention: config.logRetentionDays as RetentionDays,
    };
    const environment: Record<string, string> = { ...tables.environment(SCHEDULE_TABLE_ACCESS) };
    if (config.schedulerConfig) environment[RUNTIME_ENV.schedulerConfig] = config.schedulerConfig;

    this.queueFunction = new ServiceFunction(this, 'QueueFunction', {
      ...common,
      entry: SCHEDULE_QUEUE_ENTRY,
      serviceName: SERVICE_NAMES.scheduleQueue,
      description: 'Places instances for queued requests; replies on the reply queue',
      environment: {
        ...environment,
        [RUNTIME_ENV.deadLetterQueueUrl]: requests.deadLetterQueue.queueUrl,
        [RUNTIME_ENV.scheduleReplyQueueUrl]: replies.queue.queueUrl,
      },
    });
    this.queueFunction.addEventSource(
      new SqsEventSource(requests.queue, {
        batchSize: config.scheduleBatchSize,
        maxConcurrency: config.scheduleMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    tables.grant(this.queueFunction, SCHEDULE_TABLE_ACCESS);
    for (const statement of [...requests.deadLetterSendStatements(), ...replies.sendStatements()]) {
      this.queueFunction.addToRolePolicy(statement);
    }

    this.httpFunction = new ServiceFunction(this, 'HttpFunction', {
      ...common,
      entry: SCHEDULE_HTTP_ENTRY,
      serviceName: SERVICE_NAMES.scheduleHttp,
      description: 'Answers placement requests synchronously (Function URL, IAM auth)',
      environment,
    });
    tables.grant(this.httpFunction, SCHEDULE_TABLE_ACCESS);
    this.url = this.httpFunction.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });

    this.clientPolicy = new ManagedPolicy(this, 'ClientPolicy', {
      description: 'Placid schedule clients: call the Function URL, send requests, read replies',
      statements: [
        new PolicyStatement({
          actions: ['lambda:InvokeFunctionUrl'],
          resources: [this.httpFunction.functionArn],
          conditions: { StringEquals: { 'lambda:FunctionUrlAuthType': 'AWS_IAM' } },
        }),
        // Since October 2025 a Function URL call is also authorised as lambda:InvokeFunction.
        new PolicyStatement({
          actions: ['lambda:InvokeFunction'],
          resources: [this.httpFunction.functionArn],
        }),
        ...requests.sendStatements(),
        ...replies.consumeStatements(),
      ],
    });
  }
}
