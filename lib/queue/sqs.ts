import {
  ChangeMessageVisibilityCommand,
  type MessageAttributeValue,
  SendMessageBatchCommand,
  type SendMessageBatchCommandOutput,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { backoffDelay, type RetryPolicy } from '../model/backoff.js';
import { systemClock } from '../model/clock.js';
import { classifyFailure } from '../model/failure.js';
import { chunkForBatch, type IndexedMessage } from './batching.js';
import { QueueSendError, QueueVisibilityError } from './errors.js';
import { checkMessage, checkVisibilityTimeout, SQS_LIMITS } from './limits.js';
import {
  type BatchSendResult,
  type FailedEntry,
  type MessageAttributes,
  type MessageQueue,
  type OutgoingMessage,
  type SendResult,
  toOutgoing,
  type VisibilityControl,
} from './port.js';

/** Retries of batch entries SQS failed on its side (the SDK already retries whole failed calls). */
export const DEFAULT_SEND_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 50,
  maxDelayMs: 2_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

export interface SqsQueueOptions {
  /** The queue's MaximumMessageSize; 256 KiB unless the queue was created with more. */
  maxMessageBytes?: number;
  /** Retries of entries SQS failed on its side (the SDK already retries whole failed calls). */
  retry?: Partial<RetryPolicy>;
}

/** `MessageQueue` over Amazon SQS: SendMessage, and SendMessageBatch in calls of ≤10 entries / ≤256 KiB. */
export class SqsQueue implements MessageQueue, VisibilityControl {
  private readonly retry: RetryPolicy;
  private readonly maxMessageBytes: number;

  constructor(
    private readonly client: SQSClient,
    readonly queueUrl: string,
    options: SqsQueueOptions = {},
  ) {
    this.retry = { ...DEFAULT_SEND_RETRY, ...options.retry };
    this.maxMessageBytes = options.maxMessageBytes ?? SQS_LIMITS.messageBytes;
  }

  /** A queue with its own client, in the region named by the URL (`https://sqs.<region>.amazonaws.com/…`). */
  static fromUrl(queueUrl: string, options?: SqsQueueOptions): SqsQueue {
    const region = /^https:\/\/sqs\.([a-z0-9-]+)\./.exec(queueUrl)?.[1];
    return new SqsQueue(new SQSClient(region ? { region } : {}), queueUrl, options);
  }

  async send(body: string, attributes?: MessageAttributes): Promise<SendResult> {
    const violation = checkMessage({ body, attributes }, this.maxMessageBytes);
    if (violation)
      throw new QueueSendError(violation.code, `${this.queueUrl}: ${violation.message}`, {
        retryable: false,
      });
    const out = await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: body,
        MessageAttributes: toSqsAttributes(attributes),
      }),
    );
    if (!out.MessageId)
      throw new QueueSendError('MissingMessageId', `${this.queueUrl}: no MessageId`, { retryable: true });
    return { messageId: out.MessageId };
  }

  async sendBatch(messages: readonly (string | OutgoingMessage)[]): Promise<BatchSendResult> {
    const result: BatchSendResult = { sent: [], failed: [] };
    const acceptable: IndexedMessage[] = [];
    messages.forEach((raw, index) => {
      const message = toOutgoing(raw);
      const violation = checkMessage(message, this.maxMessageBytes);
      if (violation) result.failed.push({ index, ...violation, retryable: false });
      else acceptable.push({ index, message });
    });
    for (const chunk of chunkForBatch(acceptable, SQS_LIMITS.batchEntries, this.maxMessageBytes)) {
      await this.sendChunk(chunk, result);
    }
    result.sent.sort((a, b) => a.index - b.index);
    result.failed.sort((a, b) => a.index - b.index);
    return result;
  }

  /** ChangeMessageVisibility; a timeout SQS would refuse is refused here without a call. */
  async changeVisibility(receiptHandle: string, timeoutSeconds: number): Promise<void> {
    const violation = checkVisibilityTimeout(timeoutSeconds);
    if (violation) throw new QueueVisibilityError(violation.code, `${this.queueUrl}: ${violation.message}`);
    try {
      await this.client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: this.queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: timeoutSeconds,
        }),
      );
    } catch (error) {
      const name = (error as { name?: string })?.name ?? 'Error';
      throw new QueueVisibilityError(name, `${this.queueUrl}: ${(error as Error)?.message ?? error}`, {
        cause: error,
      });
    }
  }

  /** Sends one chunk, retrying with backoff the entries that failed through no fault of ours. */
  private async sendChunk(chunk: IndexedMessage[], result: BatchSendResult): Promise<void> {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await this.retry.sleep(backoffDelay(attempt - 1, this.retry));
      const failures = await this.attempt(pending, result);
      const lastAttempt = attempt + 1 >= this.retry.maxAttempts;
      const retryable = new Set<number>();
      for (const failure of failures) {
        if (!failure.retryable || lastAttempt) result.failed.push(failure);
        else retryable.add(failure.index);
      }
      pending = pending.filter((entry) => retryable.has(entry.index));
    }
  }

  private async attempt(pending: IndexedMessage[], result: BatchSendResult): Promise<FailedEntry[]> {
    let out: SendMessageBatchCommandOutput;
    try {
      out = await this.sendBatchCall(pending);
    } catch (error) {
      return pending.map(({ index }) => ({ index, ...describeCallError(error) }));
    }
    const answered = new Set<number>();
    for (const ok of out.Successful ?? []) {
      answered.add(Number(ok.Id));
      result.sent.push({ index: Number(ok.Id), messageId: ok.MessageId ?? '' });
    }
    const failures: FailedEntry[] = (out.Failed ?? []).map((bad) => {
      answered.add(Number(bad.Id));
      return {
        index: Number(bad.Id),
        code: bad.Code ?? 'Unknown',
        message: bad.Message ?? '',
        retryable: !(bad.SenderFault ?? false),
      };
    });
    // An entry SQS neither accepted nor refused is treated as not sent, so it is retried.
    for (const { index } of pending) {
      if (!answered.has(index)) {
        failures.push({ index, code: 'NoResult', message: 'SQS returned no result', retryable: true });
      }
    }
    return failures;
  }

  private sendBatchCall(pending: IndexedMessage[]): Promise<SendMessageBatchCommandOutput> {
    return this.client.send(
      new SendMessageBatchCommand({
        QueueUrl: this.queueUrl,
        // The caller's index is the entry id: unique in the call and maps results back.
        Entries: pending.map(({ index, message }) => ({
          Id: String(index),
          MessageBody: message.body,
          MessageAttributes: toSqsAttributes(message.attributes),
        })),
      }),
    );
  }
}

function toSqsAttributes(attributes?: MessageAttributes): Record<string, MessageAttributeValue> | undefined {
  const entries = Object.entries(attributes ?? {});
  if (entries.length === 0) return undefined;
  return Object.fromEntries(
    entries.map(([name, value]) => [name, { DataType: 'String', StringValue: value }]),
  );
}

/**
 * A whole call that failed after the SDK's own retries; a client fault will not get better by
 * retrying, and a failure nobody named is tried again (lib/model/failure.ts).
 */
function describeCallError(error: unknown): Omit<FailedEntry, 'index'> {
  const e = error as { name?: string; message?: string };
  return {
    code: e?.name ?? 'Error',
    message: e?.message ?? String(error),
    retryable: classifyFailure(error) !== 'permanent',
  };
}
