import { PlacidError } from '../model/errors.js';

/** No host can take the request: Nova's NoValidHost. Returned in decisions; thrown by strict callers. */
export class NoValidHostError extends PlacidError {}

/** A filter or weigher raised while evaluating a request (a bug or an unusable request). */
export class PluginError extends PlacidError {
  constructor(
    readonly plugin: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${plugin}: ${message}`, options);
  }
}
