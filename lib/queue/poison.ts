import type { SQSRecord } from 'aws-lambda';
import { messageBytes, SQS_LIMITS, sanitizeForSqs, truncateUtf8 } from './limits.js';
import type { MessageAttributes, MessageQueue, OutgoingMessage, SendResult } from './port.js';

/** Attributes a rejected message carries into the dead-letter queue, so an operator sees why. */
export const DEAD_LETTER_ATTRIBUTE = {
  error: 'placid-error',
  errorName: 'placid-error-name',
  sourceMessageId: 'placid-source-message-id',
  sourceQueue: 'placid-source-queue',
  /** Set (to the original size in bytes) only when the body had to be cut to make room for the reason. */
  bodyTruncated: 'placid-body-truncated',
} as const;

/** Room for the reason; a validation error lists at most ten issues, which fits comfortably. */
export const ERROR_ATTRIBUTE_MAX_BYTES = 2048;
// Below this much room for the reason, the body is shortened instead of the reason.
const ERROR_ATTRIBUTE_MIN_BYTES = 256;
const CORRELATION_ID = 'correlation_id';

/**
 * The dead-letter copy of `record`: its body unchanged and the reason attached. Fits the SQS size
 * quota: the reason is truncated first; only a body that leaves no room for a useful reason is cut.
 */
export function deadLetterMessage(
  record: SQSRecord,
  error: Error,
  maxMessageBytes: number = SQS_LIMITS.messageBytes,
): OutgoingMessage {
  const attributes: MessageAttributes = {
    [DEAD_LETTER_ATTRIBUTE.errorName]: sanitizeForSqs(error.name || 'Error'),
    [DEAD_LETTER_ATTRIBUTE.sourceMessageId]: record.messageId,
    [DEAD_LETTER_ATTRIBUTE.sourceQueue]: record.eventSourceARN,
  };
  const correlationId = record.messageAttributes?.[CORRELATION_ID]?.stringValue;
  if (correlationId) attributes[CORRELATION_ID] = correlationId;

  const reason = sanitizeForSqs(error.message) || attributes[DEAD_LETTER_ATTRIBUTE.errorName];
  const fixedBytes =
    messageBytes({ body: '', attributes }) +
    messageBytes({ body: '', attributes: { [DEAD_LETTER_ATTRIBUTE.error]: '' } });
  const bodyBytes = Buffer.byteLength(record.body, 'utf8');
  const room = maxMessageBytes - fixedBytes - bodyBytes;
  if (room >= ERROR_ATTRIBUTE_MIN_BYTES || room >= Buffer.byteLength(reason, 'utf8')) {
    attributes[DEAD_LETTER_ATTRIBUTE.error] = truncateUtf8(reason, Math.min(room, ERROR_ATTRIBUTE_MAX_BYTES));
    return { body: record.body, attributes };
  }

  attributes[DEAD_LETTER_ATTRIBUTE.error] = truncateUtf8(reason, ERROR_ATTRIBUTE_MIN_BYTES);
  attributes[DEAD_LETTER_ATTRIBUTE.bodyTruncated] = String(bodyBytes);
  const bodyRoom = maxMessageBytes - messageBytes({ body: '', attributes });
  return { body: truncateUtf8(record.body, bodyRoom), attributes };
}

/** Sends `record` to the dead-letter queue with the reason it was rejected. */
export function sendToDeadLetter(
  deadLetter: MessageQueue,
  record: SQSRecord,
  error: Error,
): Promise<SendResult> {
  const message = deadLetterMessage(record, error);
  return deadLetter.send(message.body, message.attributes);
}
