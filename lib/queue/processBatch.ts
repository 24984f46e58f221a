import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
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

export interface RejectedRecord {
  messageId: string;
  reason: string;
}

export interface BatchOutcome {
  /** What the Lambda returns to its event source mapping (ReportBatchItemFailures). */
  response: SQSBatchResponse;
  counts: BatchCounts;
  rejections: RejectedRecord[];
}

/**
 * Processes an SQS batch one record at a time, in order, with Powertools' BatchProcessor. A poison
 * message is sent to the dead-letter queue by the record handler itself and counted as done, so SQS
 * never redelivers it and it never holds up the rest of its batch; a transient failure is rethrown,
 * so BatchProcessor reports it in `batchItemFailures` and only that record comes back. If the
 * dead-letter send fails the record is retried instead: nothing is dropped. A batch whose every
 * record failed is answered the same way (all listed) rather than thrown, so the counts still come back.
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
  const rejections: RejectedRecord[] = [];
  const counts: BatchCounts = { stored: 0, rejected: 0, retried: 0 };

  const handleRecord = async (record: SQSRecord): Promise<void> => {
    try {
      await options.handle(options.parse(record.body, record), record);
      counts.stored++;
      return;
    } catch (error) {
      if (!isPoison(error)) {
        options.logger?.warn('record failed; SQS will redeliver it', { messageId: record.messageId, error });
        throw error;
      }
      await reject(record, error instanceof Error ? error : new Error(String(error)));
    }
  };
  const reject = async (record: SQSRecord, reason: Error): Promise<void> => {
    try {
      await sendToDeadLetter(options.deadLetter, record, reason);
    } catch (sendError) {
      options.logger?.error('could not dead-letter a rejected record; SQS will redeliver it', {
        messageId: record.messageId,
        error: sendError,
      });
      throw sendError;
    }
    counts.rejected++;
    rejections.push({ messageId: record.messageId, reason: reason.message });
    options.logger?.warn('rejected a malformed message to the dead-letter queue', {
      messageId: record.messageId,
      reason: reason.message,
    });
  };

  // In order, one at a time (Powertools defaults to all at once): handlers keep per-batch state, e.g.
  // the plan starter's count of running executions, which each start it admits moves on.
  const answer = (await processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), {
    processInParallel: false,
    throwOnFullBatchFailure: false,
  })) as SQSBatchResponse;
  // A copy: with no failures Powertools answers with one shared module-level object, and callers
  // may add failures found after the loop (the ingest stage's batch-wide writes).
  const response: SQSBatchResponse = { batchItemFailures: [...answer.batchItemFailures] };
  counts.retried = response.batchItemFailures.length;
  return { response, counts, rejections };
}
