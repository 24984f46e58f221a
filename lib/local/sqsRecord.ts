import type { SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import type { MessageAttributes } from '../queue/port.js';
import { md5Hex, md5OfMessageAttributes } from './sqsMd5.js';

/** A message as the local queue keeps it. */
export interface StoredMessage {
  readonly messageId: string;
  readonly body: string;
  readonly attributes: Readonly<MessageAttributes>;
  readonly sentTimestamp: number;
  receiveCount: number;
  firstReceiveTimestamp?: number;
  /** Epoch ms of the latest receive: its in-flight time is bounded from here (12 hours). */
  receivedAt?: number;
  /** Epoch ms from which the message may be received again. */
  visibleAt: number;
  /** Handle of the latest receive; only it can delete the message. */
  receiptHandle?: string;
  /** Set on a dead-letter queue's copy: the queue the message was moved from. */
  deadLetterSourceArn?: string;
}

export interface QueueIdentity {
  arn: string;
  region: string;
  senderId: string;
}

/** The Lambda event record for a received message, with every field the Powertools SQS schema requires. */
export function toSqsRecord(message: StoredMessage, queue: QueueIdentity): SQSRecord {
  const entries = Object.entries(message.attributes);
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of entries) {
    messageAttributes[name] = {
      stringValue: value,
      stringListValues: [],
      binaryListValues: [],
      dataType: 'String',
    };
  }
  const md5OfAttributes = md5OfMessageAttributes(
    Object.fromEntries(entries.map(([name, value]) => [name, { dataType: 'String', value }])),
  );
  return {
    messageId: message.messageId,
    receiptHandle: message.receiptHandle ?? '',
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentTimestamp),
      SenderId: queue.senderId,
      ApproximateFirstReceiveTimestamp: String(message.firstReceiveTimestamp ?? message.sentTimestamp),
      ...(message.deadLetterSourceArn ? { DeadLetterQueueSourceArn: message.deadLetterSourceArn } : {}),
    },
    messageAttributes,
    md5OfBody: md5Hex(message.body),
    ...(md5OfAttributes ? { md5OfMessageAttributes: md5OfAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queue.arn,
    awsRegion: queue.region,
  };
}
