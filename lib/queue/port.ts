/** String-valued SQS message attributes (`DataType: 'String'`), keyed by attribute name. */
export type MessageAttributes = Record<string, string>;

/** One message to enqueue: its body and optional string attributes. */
export interface OutgoingMessage {
  body: string;
  attributes?: MessageAttributes;
}

export interface SendResult {
  messageId: string;
}

/** An entry of a batch that was accepted; `index` points into the caller's array. */
export interface SentEntry {
  index: number;
  messageId: string;
}

/**
 * An entry that was not enqueued after every retry. `retryable`: false when SQS blamed the sender
 * (its SenderFault) or refused the call as a client error, so sending it again cannot help.
 */
export interface FailedEntry {
  index: number;
  code: string;
  message: string;
  retryable: boolean;
}

/** Per-entry outcome of `sendBatch`: every input index appears in exactly one list. */
export interface BatchSendResult {
  sent: SentEntry[];
  failed: FailedEntry[];
}

/**
 * The queue seen by Placid's stages. Two adapters implement it: `SqsQueue` (the AWS SDK) and
 * `LocalSqsQueue` (in process), so a stage never knows which one it writes to.
 *
 * `send` throws when the message cannot be enqueued; `sendBatch` never throws for a bad entry, it
 * reports it, because a batch is usually many independent messages.
 */
export interface MessageQueue {
  send(body: string, attributes?: MessageAttributes): Promise<SendResult>;
  sendBatch(messages: readonly (string | OutgoingMessage)[]): Promise<BatchSendResult>;
}

/**
 * ChangeMessageVisibility on a message this consumer received: it stays hidden for `timeoutSeconds`
 * (0..43200) counted from the call, so a consumer can bring back sooner (or later) a message it could
 * not handle yet. Throws QueueVisibilityError when SQS would refuse the call.
 */
export interface VisibilityControl {
  changeVisibility(receiptHandle: string, timeoutSeconds: number): Promise<void>;
}

/** Accepts a bare body or a full message, so callers with no attributes can pass strings. */
export function toOutgoing(message: string | OutgoingMessage): OutgoingMessage {
  return typeof message === 'string' ? { body: message } : message;
}
