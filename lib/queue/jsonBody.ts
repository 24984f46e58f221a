import { ValidationError } from '../model/errors.js';

/** `JSON.parse` that reports a body that is not JSON as a ValidationError (so it is rejected, not retried). */
export function parseJsonBody(body: string, source = 'message body'): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    // RangeError (nesting too deep for the stack) is bad input too, not a transient failure.
    const detail = error instanceof Error ? error.message : String(error);
    throw new ValidationError(source, [{ path: '', message: `not valid JSON (${detail})` }]);
  }
}
