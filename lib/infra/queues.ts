/**
 * Every queue of the pipeline, each with its dead-letter queue, under one customer-managed key for
 * messaging (queues and the alarm topic). Later stages add theirs with `add` (the plan queue).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { PlacidConfig } from './config.js';
import { ServiceQueue } from './serviceQueue.js';

/** Lambda's advice for SQS event sources: visibility ≥ 6 × function timeout (+ the batching window). */
export function visibilityFor(timeoutSeconds: number, batchingWindowSeconds = 0): Duration {
  return Duration.seconds(6 * timeoutSeconds + batchingWindowSeconds);
}

/** Replies are read by the caller, not by a Lambda: a minute is ample to receive and delete one. */
const REPLY_VISIBILITY = Duration.seconds(60);

export class Queues extends Construct {
  readonly key: Key;
  /** Hypervisor and instance reports from the agents. */
  readonly ingest: ServiceQueue;
  /** Placement requests for the schedule stage. */
  readonly scheduleRequests: ServiceQueue;
  /** Decisions, for the callers that sent the requests. */
  readonly scheduleReplies: ServiceQueue;
  private readonly queues: ServiceQueue[] = [];

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { config: PlacidConfig },
  ) {
    super(scope, id);
    const { config } = props;
    this.key = new Key(this, 'Key', {
      description: 'Placid queues and alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.ingest = this.add(
      'Ingest',
      visibilityFor(config.ingestTimeoutSeconds, config.ingestBatchingWindowSeconds),
    );
    this.scheduleRequests = this.add('ScheduleRequests', visibilityFor(config.scheduleTimeoutSeconds));
    this.scheduleReplies = this.add('ScheduleReplies', REPLY_VISIBILITY);
  }

  /**
   * A new queue pair under this construct, watched with the others. `maxReceiveCount` for a queue
   * whose messages are returned on purpose (the plan queue); the config's otherwise.
   */
  add(id: string, visibilityTimeout: Duration, maxReceiveCount?: number): ServiceQueue {
    const queue = new ServiceQueue(this, id, {
      key: this.key,
      visibilityTimeout,
      maxReceiveCount: maxReceiveCount ?? this.props.config.maxReceiveCount,
      deadLetterRetention: Duration.days(this.props.config.deadLetterRetentionDays),
    });
    this.queues.push(queue);
    return queue;
  }

  /** Every queue pair, for alarms and the dashboard. */
  all(): readonly ServiceQueue[] {
    return this.queues;
  }
}
