export { classifyFailure, type FailureKind, isPermanentFailure, isRetryable } from '../model/failure.js';
export { chunkForBatch, type IndexedMessage } from './batching.js';
export { QueueSendError, QueueVisibilityError } from './errors.js';
export { parseJsonBody } from './jsonBody.js';
export {
  checkMessage,
  checkVisibilityTimeout,
  type LimitViolation,
  messageBytes,
  SQS_LIMITS,
  sanitizeForSqs,
  truncateUtf8,
} from './limits.js';
export {
  DEAD_LETTER_ATTRIBUTE,
  deadLetterMessage,
  ERROR_ATTRIBUTE_MAX_BYTES,
  sendToDeadLetter,
} from './poison.js';
export * from './port.js';
export {
  type BatchCounts,
  type BatchLogger,
  type BatchOutcome,
  processSqsBatch,
  type RejectedRecord,
  type SqsBatchOptions,
} from './processBatch.js';
export { SqsQueue, type SqsQueueOptions } from './sqs.js';
