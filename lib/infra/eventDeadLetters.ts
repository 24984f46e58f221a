/**
 * A dead-letter queue for events that never reached, or kept failing in, an asynchronously invoked
 * function: EventBridge rule targets, EventBridge Scheduler targets and Lambda's own on-failure
 * destination all put them here. Encrypted with the messaging key and TLS-only like every queue.
 */
import { type Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { DestinationConfig, IDestination, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueSendStatements } from './serviceQueue.js';

export interface EventDeadLettersProps {
  readonly key: IKey;
  readonly retention: Duration;
}

export class EventDeadLetters extends Construct {
  readonly queue: Queue;
  private readonly key: IKey;

  constructor(scope: Construct, id: string, props: EventDeadLettersProps) {
    super(scope, id);
    this.key = props.key;
    this.queue = new Queue(this, 'DeadLetter', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.key,
      enforceSSL: true,
      retentionPeriod: props.retention,
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This is a dead-letter queue: of EventBridge and Scheduler targets and of a Lambda on-failure destination, which cdk-nag does not recognise as DLQ uses',
    });
    // EventBridge delivers a rule's dead letters as its own service principal (the queue policy
    // that CDK adds lets it send), so the key must let that principal encrypt for this account.
    const account = Stack.of(this).account;
    props.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('events.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
  }

  /** SendMessage and the key, through SQS only: for a Scheduler role or a function's own role. */
  sendStatements(): PolicyStatement[] {
    return queueSendStatements(this.queue, this.key);
  }

  /**
   * Lambda's on-failure destination for asynchronous invocations. CDK's SqsDestination would grant
   * `kms:GenerateDataKey*` and friends; this grants exactly sendStatements() to the function.
   */
  failureDestination(): IDestination {
    const statements = () => this.sendStatements();
    const queueArn = this.queue.queueArn;
    return {
      bind(_scope: Construct, fn: IFunction): DestinationConfig {
        for (const statement of statements()) fn.addToRolePolicy(statement);
        return { destination: queueArn };
      },
    };
  }
}
