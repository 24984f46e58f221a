/**
 * The ingest stage: the SQS-triggered Lambda that stores agent reports (functions/ingest), and the
 * managed policy an agent's role attaches to send reports to its queue.
 */
import { Duration } from 'aws-cdk-lib';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';
import { RUNTIME_ENV, SERVICE_NAMES } from './runtimeEnv.js';
import { ServiceFunction } from './serviceFunction.js';
import type { ServiceQueue } from './serviceQueue.js';
import type { TableAccess, Tables } from './tables.js';

export const INGEST_ENTRY = 'functions/ingest/handler.ts';

/** What storing a report does (lib/store): conditional state writes, batched immutable samples and their window digests. */
export const INGEST_TABLE_ACCESS: TableAccess = {
  hosts: ['GetItem', 'UpdateItem'],
  instances: ['GetItem', 'PutItem'],
  samples: ['BatchWriteItem'],
  /** The ingest watermark item (one conditional update per batch); when window digests began (once). */
  leases: ['UpdateItem'],
};

export interface IngestStageProps {
  readonly config: PlacidConfig;
  readonly tables: Tables;
  readonly queue: ServiceQueue;
}

export class IngestStage extends Construct {
  readonly function: ServiceFunction;
  /** Attach to the agents' role or user: send reports to the ingest queue, nothing else. */
  readonly senderPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: IngestStageProps) {
    super(scope, id);
    const { config, tables, queue } = props;
    this.function = new ServiceFunction(this, 'Function', {
      entry: INGEST_ENTRY,
      serviceName: SERVICE_NAMES.ingest,
      description: 'Validates agent reports and stores them in DynamoDB',
      timeout: Duration.seconds(config.ingestTimeoutSeconds),
      memorySize: config.ingestMemoryMb,
      logRetention: config.logRetentionDays as RetentionDays,
      environment: {
        ...tables.environment(INGEST_TABLE_ACCESS),
        [RUNTIME_ENV.deadLetterQueueUrl]: queue.deadLetterQueue.queueUrl,
      },
    });
    this.function.addEventSource(
      new SqsEventSource(queue.queue, {
        batchSize: config.ingestBatchSize,
        maxBatchingWindow: Duration.seconds(config.ingestBatchingWindowSeconds),
        maxConcurrency: config.ingestMaxConcurrency,
        reportBatchItemFailures: true,
      }),
    );
    tables.grant(this.function, INGEST_TABLE_ACCESS);
    for (const statement of queue.deadLetterSendStatements()) this.function.addToRolePolicy(statement);

    this.senderPolicy = new ManagedPolicy(this, 'SenderPolicy', {
      description: 'Placid agents: send reports to the ingest queue',
      statements: queue.sendStatements(),
    });
  }
}
