import { PlacidError } from '../model/errors.js';

/** A message that the queue refused or that could not be enqueued; `code` is SQS's error code. */
export class QueueSendError extends PlacidError {
  constructor(
    readonly code: string,
    message: string,
    readonly senderFault: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
