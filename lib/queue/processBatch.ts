import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isPermanentFailure } from '../model/failure.js';
import { sendToDeadLetter } from './poison.js';
import type { MessageQueue } from './port.js';

/** The subset of Powertools' Logger the batch loop uses (any console-like logger fits). */
export interface BatchLogger {
  warn(message: string, attributes: Record<string, unknown>): void;
  error(message: string, attributes: Record<string, unknown>): void;
}

export interface SqsBatchOptions<T> {
  /** Turns a body into a typed item; throws ValidationError for input that can never succeed. */
  parse: (body: string, record: SQSRecord) => T;
  /** Does the work for one item; any error other than a poison one means "try again later". */
  handle: (item: T, record: SQSRecord) => Promise<void>;
  /** Where rejected messages go, with their reason attached. */
  deadLetter: MessageQueue;
  /** Which errors mean the message itself is bad. Default: isPermanentFailure (lib/model/failure.ts). */
  isPoison?: (error: unknown) => boolean;
  logger?: BatchLogger;
}

/** stored = handled; rejected = sent to the dead-letter queue; retried = left for SQS to redeliver. */
export interface BatchCounts {
  stored: number;
  rejected: number;
  retried: number;
}

export interface Rejection {
  messageId: string;
  reason: string;
}

export interface BatchOutcome {
  /** What the Lambda returns to its event source mapping (ReportBatchItemFailures). */
  response: SQSBatchResponse;
  counts: BatchCounts;
  rejections: Rejection[];
}

/**
 * Processes an SQS batch one record at a time, in order. A poison message is sent to the dead-letter
 * queue by the handler itself and counted as done, so SQS never redelivers it and it never holds up
 * the rest of its batch; a transient failure is reported in `batchItemFailures`, so only that record
 * comes back. If the dead-letter send fails the record is retried instead: nothing is dropped.
 *
 * @example
 * export const handler = withPowertools(async (event: SQSEvent) => {
 *   const { response } = await processSqsBatch(event, { parse, handle: store, deadLetter });
 *   return response;
 * });
 */
export async function processSqsBatch<T>(
  event: SQSEvent,
  options: SqsBatchOptions<T>,
): Promise<BatchOutcome> {
  const isPoison = options.isPoison ?? isPermanentFailure;
  const failures: SQSBatchItemFailure[] = [];
  const rejections: Rejection[] = [];
  const counts: BatchCounts = { stored: 0, rejected: 0, retried: 0 };
  const retry = (record: SQSRecord, level: 'warn' | 'error', message: string, error: unknown): void => {
    failures.push({ itemIdentifier: record.messageId });
    counts.retried++;
    options.logger?.[level](message, { messageId: record.messageId, error });
  };

  for (const record of event.Records) {
    try {
      await options.handle(options.parse(record.body, record), record);
      counts.stored++;
    } catch (error) {
      if (!isPoison(error)) {
        retry(record, 'warn', 'record failed; SQS will redeliver it', error);
        continue;
      }
      const reason = error instanceof Error ? error : new Error(String(error));
      try {
        await sendToDeadLetter(options.deadLetter, record, reason);
      } catch (sendError) {
        retry(record, 'error', 'could not dead-letter a rejected record; SQS will redeliver it', sendError);
        continue;
      }
      counts.rejected++;
      rejections.push({ messageId: record.messageId, reason: reason.message });
      options.logger?.warn('rejected a malformed message to the dead-letter queue', {
        messageId: record.messageId,
        reason: reason.message,
      });
    }
  }
  return { response: { batchItemFailures: failures }, counts, rejections };
}
