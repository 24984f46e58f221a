import { randomBytes, randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import type { Clock } from '../model/clock.js';
import { ConfigError } from '../model/errors.js';
import { QueueSendError, QueueVisibilityError } from '../queue/errors.js';
import { checkMessage, checkVisibilityTimeout, SQS_LIMITS } from '../queue/limits.js';
import {
  type BatchSendResult,
  type MessageAttributes,
  type MessageQueue,
  type OutgoingMessage,
  type SendResult,
  toOutgoing,
  type VisibilityControl,
} from '../queue/port.js';
import {
  EventSourceMapping,
  type EventSourceOptions,
  type QueueDrainOptions,
  type QueueDrainResult,
  type SqsBatchHandler,
} from './eventSourceMapping.js';
import { type LocalQueueOptions, type QueueSettings, resolveQueueOptions } from './queueSettings.js';
import { type QueueIdentity, type StoredMessage, toSqsRecord } from './sqsRecord.js';

export type { LocalQueueOptions } from './queueSettings.js';

export interface QueueCounters {
  /** Accepted by send/sendBatch (a dead-letter queue's redriven arrivals are not counted here). */
  sent: number;
  /** Receives, redeliveries included. */
  delivered: number;
  succeeded: number;
  failed: number;
  deadLettered: number;
}

/** A read-only copy of a stored message, for assertions. */
export type QueueMessage = Readonly<Omit<StoredMessage, 'receiptHandle'>>;

/**
 * An in-process queue with SQS standard-queue semantics (at-least-once, visibility timeout, receive
 * count, redrive to a dead-letter queue) that hands Lambda-shaped records to an attached handler.
 */
export class LocalSqsQueue implements MessageQueue, VisibilityControl {
  readonly name: string;
  readonly arn: string;
  readonly url: string;
  readonly clock: Clock;
  private readonly settings: QueueSettings;
  private readonly identity: QueueIdentity;
  private readonly stored = new Map<string, StoredMessage>();
  private readonly counters: QueueCounters = {
    sent: 0,
    delivered: 0,
    succeeded: 0,
    failed: 0,
    deadLettered: 0,
  };
  private mapping?: EventSourceMapping;

  constructor(options: LocalQueueOptions) {
    this.settings = resolveQueueOptions(options);
    ({ name: this.name, arn: this.arn, url: this.url, clock: this.clock } = this.settings);
    this.identity = { arn: this.arn, region: this.settings.region, senderId: this.settings.senderId };
  }

  async send(body: string, attributes?: MessageAttributes): Promise<SendResult> {
    const violation = checkMessage({ body, attributes }, this.settings.maxMessageBytes);
    if (violation)
      throw new QueueSendError(violation.code, `${this.name}: ${violation.message}`, { retryable: false });
    return { messageId: this.enqueue({ body, attributes }) };
  }

  async sendBatch(messages: readonly (string | OutgoingMessage)[]): Promise<BatchSendResult> {
    const result: BatchSendResult = { sent: [], failed: [] };
    messages.forEach((raw, index) => {
      const message = toOutgoing(raw);
      const violation = checkMessage(message, this.settings.maxMessageBytes);
      if (violation) result.failed.push({ index, ...violation, retryable: false });
      else result.sent.push({ index, messageId: this.enqueue(message) });
    });
    return result;
  }

  /**
   * ReceiveMessage: up to `max` visible messages, each made invisible for the visibility timeout.
   * A message already received `maxReceiveCount` times moves to the dead-letter queue instead, as in SQS.
   */
  receive(max: number = SQS_LIMITS.batchEntries): SQSRecord[] {
    const now = this.clock.now();
    const records: SQSRecord[] = [];
    for (const message of this.stored.values()) {
      if (records.length >= max) break;
      if (message.visibleAt > now) continue;
      if (this.settings.redrive && message.receiveCount >= this.settings.redrive.maxReceiveCount) {
        this.moveToDeadLetter(message);
        continue;
      }
      message.receiveCount++;
      message.firstReceiveTimestamp ??= now;
      message.receivedAt = now;
      message.visibleAt = now + this.settings.visibilityTimeoutMs;
      message.receiptHandle = `${randomBytes(24).toString('base64url')}.${message.messageId}`;
      this.counters.delivered++;
      records.push(toSqsRecord(message, this.identity));
    }
    return records;
  }

  /** DeleteMessage: only the latest receipt handle of a message deletes it. */
  delete(receiptHandle: string): boolean {
    const messageId = receiptHandle.slice(receiptHandle.indexOf('.') + 1);
    const message = this.stored.get(messageId);
    if (!message || message.receiptHandle !== receiptHandle) return false;
    return this.stored.delete(messageId);
  }

  /**
   * ChangeMessageVisibility, as SQS answers it: only the latest receipt handle of a message that is
   * still in flight counts, and the new timeout runs from now but not past 12 hours after that receive.
   */
  async changeVisibility(receiptHandle: string, timeoutSeconds: number): Promise<void> {
    const violation = checkVisibilityTimeout(timeoutSeconds);
    if (violation) throw new QueueVisibilityError(violation.code, `${this.name}: ${violation.message}`);
    const message = this.stored.get(receiptHandle.slice(receiptHandle.indexOf('.') + 1));
    if (!message || message.receiptHandle !== receiptHandle) {
      throw new QueueVisibilityError(
        'ReceiptHandleIsInvalid',
        `${this.name}: the receipt handle is not the latest receive of a message in the queue`,
      );
    }
    const now = this.clock.now();
    if (message.visibleAt <= now) {
      throw new QueueVisibilityError('MessageNotInflight', `${this.name}: the message is visible again`);
    }
    const until = now + timeoutSeconds * 1000;
    if (until > (message.receivedAt ?? now) + SQS_LIMITS.visibilitySeconds * 1000) {
      throw new QueueVisibilityError(
        'InvalidParameterValue',
        `${this.name}: VisibilityTimeout ${timeoutSeconds} would keep the message in flight over 12 hours after its receive`,
      );
    }
    message.visibleAt = until;
  }

  /** What a Lambda poller does after an invocation: delete the successes; failures wait out their timeout. */
  settle(records: readonly SQSRecord[], failedIds: ReadonlySet<string>): void {
    for (const record of records) {
      if (failedIds.has(record.messageId)) this.counters.failed++;
      else if (this.delete(record.receiptHandle)) this.counters.succeeded++;
    }
  }

  /** Connects a Lambda handler, as an event source mapping with ReportBatchItemFailures would. */
  attach(handler: SqsBatchHandler, options?: EventSourceOptions): EventSourceMapping {
    this.mapping = new EventSourceMapping(this, handler, options);
    return this.mapping;
  }

  /** Delivers batches to the attached handler until nothing is visible (see `QueueDrainOptions`). */
  async drain(options?: QueueDrainOptions): Promise<QueueDrainResult> {
    if (!this.mapping) throw new ConfigError(`queue ${this.name} has no handler attached`);
    return this.mapping.drain(options);
  }

  /** Every message still in the queue, in send order, visible or not. */
  messages(): QueueMessage[] {
    return [...this.stored.values()].map(snapshot);
  }

  /** Up to `max` messages that are visible now, without receiving them. */
  peek(max: number = SQS_LIMITS.batchEntries): QueueMessage[] {
    const now = this.clock.now();
    return this.messages()
      .filter((m) => m.visibleAt <= now)
      .slice(0, max);
  }

  get size(): number {
    return this.stored.size;
  }

  /** When the next message becomes visible (now or later), or undefined when the queue is empty. */
  nextVisibleAt(): number | undefined {
    let next: number | undefined;
    for (const message of this.stored.values()) {
      if (next === undefined || message.visibleAt < next) next = message.visibleAt;
    }
    return next;
  }

  stats(): Readonly<QueueCounters> {
    return { ...this.counters };
  }

  purge(): void {
    this.stored.clear();
  }

  private enqueue(message: OutgoingMessage, copyOf?: StoredMessage, sourceArn?: string): string {
    const now = this.clock.now();
    const messageId = copyOf?.messageId ?? randomUUID();
    this.stored.set(messageId, {
      messageId,
      body: message.body,
      attributes: { ...message.attributes },
      // A redriven message keeps its id and original send time, as in SQS standard queues.
      sentTimestamp: copyOf?.sentTimestamp ?? now,
      receiveCount: 0,
      visibleAt: now,
      deadLetterSourceArn: sourceArn,
    });
    if (!copyOf) this.counters.sent++;
    return messageId;
  }

  private moveToDeadLetter(message: StoredMessage): void {
    this.stored.delete(message.messageId);
    this.counters.deadLettered++;
    this.settings.redrive?.deadLetterQueue.enqueue(message, message, this.arn);
  }
}

function snapshot(message: StoredMessage): QueueMessage {
  const { receiptHandle: _handle, ...rest } = message;
  return { ...rest, attributes: { ...rest.attributes } };
}
