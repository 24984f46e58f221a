import { PlacidError, RequestError } from '../model/errors.js';

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

/** A request to place sent to a read-only replica: placing claims, and a replica writes nothing. */
export class ReadOnlyReplicaError extends RequestError {
  constructor() {
    super(
      'this placid serve is a read-only replica: it answers advisory requests (advisory: true) only; ' +
        'send requests to place to the Function URL or a placid serve over a store it owns',
    );
  }
}
