import { PlacidError } from '../model/errors.js';

/** A store operation that could not complete; `retryable` says whether trying the message again can help. */
export class StoreError extends PlacidError {
  readonly retryable: boolean = false;
}

/** Items still unprocessed or throttled after every attempt: DynamoDB is overloaded, so retry later. */
export class BatchWriteError extends StoreError {
  override readonly retryable = true;
  /** The items left unwritten, when the writer knows them (batchPut does). */
  readonly items: readonly Record<string, unknown>[];
  constructor(
    message: string,
    readonly unprocessed: number,
    options?: { cause?: unknown; items?: readonly Record<string, unknown>[] },
  ) {
    super(message, options);
    this.items = options?.items ?? [];
  }
}

/** A conditional write kept losing to concurrent writers; retrying the whole message is safe. */
export class WriteConflictError extends StoreError {
  override readonly retryable = true;
}
