/**
 * A work queue and its dead-letter queue: KMS-encrypted with the messaging key, TLS-only, with a
 * redrive policy. Permission helpers return explicit statements (no `kms:GenerateDataKey*` style
 * wildcards, which the CDK queue grants would add) so functions and client policies share them.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** How long a work queue keeps a message. */
export const QUEUE_RETENTION = Duration.days(4);

export interface ServiceQueueProps {
  readonly key: IKey;
  /** At least six times the consumer's timeout (plus its batching window), as Lambda advises. */
  readonly visibilityTimeout: Duration;
  readonly maxReceiveCount: number;
  readonly deadLetterRetention: Duration;
}

export class ServiceQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  private readonly key: IKey;

  constructor(scope: Construct, id: string, props: ServiceQueueProps) {
    super(scope, id);
    this.key = props.key;
    const encryption = { encryption: QueueEncryption.KMS, encryptionMasterKey: props.key, enforceSSL: true };
    this.deadLetterQueue = new Queue(this, 'DeadLetter', {
      ...encryption,
      retentionPeriod: props.deadLetterRetention,
    });
    this.queue = new Queue(this, 'Queue', {
      ...encryption,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: QUEUE_RETENTION,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
  }

  /** SendMessage (and SendMessageBatch, which IAM authorises as SendMessage) on the work queue. */
  sendStatements(): PolicyStatement[] {
    return this.send(this.queue);
  }

  /** Lets a stage put a rejected message straight into the dead-letter queue with its reason. */
  deadLetterSendStatements(): PolicyStatement[] {
    return this.send(this.deadLetterQueue);
  }

  /** Receive and delete on the work queue: for clients that read it (the reply queue's callers). */
  consumeStatements(): PolicyStatement[] {
    return [
      new PolicyStatement({
        actions: [
          'sqs:ReceiveMessage',
          'sqs:DeleteMessage',
          'sqs:ChangeMessageVisibility',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
        ],
        resources: [this.queue.queueArn],
      }),
      queueKeyStatement(this.key, ['kms:Decrypt']),
    ];
  }

  private send(queue: Queue): PolicyStatement[] {
    return queueSendStatements(queue, this.key);
  }
}

/** SendMessage on `queue`, encrypted with `key`: what any producer of a Placid queue is granted. */
export function queueSendStatements(queue: IQueue, key: IKey): PolicyStatement[] {
  return [
    new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    // A producer needs a data key to encrypt, and Decrypt to reuse a cached one.
    queueKeyStatement(key, ['kms:GenerateDataKey', 'kms:Decrypt']),
  ];
}

/** Use of the messaging key, only through SQS. */
function queueKeyStatement(key: IKey, actions: string[]): PolicyStatement {
  return new PolicyStatement({
    actions,
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:ViaService': `sqs.${Stack.of(key).region}.amazonaws.com` } },
  });
}
