import { PlacidError } from '../model/errors.js';

/**
 * A request id already decided for a different request. Retrying cannot help: the caller must use
 * a new request id (the HTTP endpoint answers 409; the queue consumer dead-letters the message).
 */
export class RequestIdConflictError extends PlacidError {
  readonly retryable = false;
  constructor(readonly requestId: string) {
    super(
      `request_id ${requestId} was already decided for a different request; ` +
        'send a new request_id for a new request (a redelivery must repeat the request unchanged)',
    );
  }
}
