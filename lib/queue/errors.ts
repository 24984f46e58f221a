import { PlacidError } from '../model/errors.js';

/**
 * A message that the queue refused or that could not be enqueued; `code` is SQS's error code.
 * `retryable`: false when SQS blamed the sender (the message itself is wrong), true otherwise.
 */
export class QueueSendError extends PlacidError {
  readonly retryable: boolean;
  constructor(
    readonly code: string,
    message: string,
    options: { retryable: boolean; cause?: unknown },
  ) {
    super(message, options);
    this.retryable = options.retryable;
  }
}

/**
 * ChangeMessageVisibility refused; `code` is SQS's: `InvalidParameterValue` (a timeout outside
 * 0..43200 s or past 12 hours from the receive), `ReceiptHandleIsInvalid` (not the message's latest
 * receipt) or `MessageNotInflight` (its visibility timeout already ran out).
 */
export class QueueVisibilityError extends PlacidError {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
