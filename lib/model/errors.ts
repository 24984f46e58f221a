/** Base of every error Placid raises on purpose; `name` is stable (Step Functions matches on it). */
export class PlacidError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem in an input document: where it is and what is wrong with it. */
export interface Issue {
  /** Dotted path inside the document, e.g. `[3].aggregates[0].metadata`. */
  path: string;
  message: string;
}

/** Input that does not match its schema; names the source, each field path and the problem. */
export class ValidationError extends PlacidError {
  /** The same input fails the same way every time (queue consumers dead-letter it at once). */
  readonly retryable = false;
  constructor(
    readonly source: string,
    readonly issues: Issue[],
  ) {
    super(
      `${source}: ${issues
        .slice(0, 10)
        .map((i) => `${i.path || '(root)'}: ${i.message}`)
        .join('; ')}${issues.length > 10 ? `; and ${issues.length - 10} more` : ''}`,
    );
  }
}

/** Configuration that names an unknown option, filter or weigher, or has a bad value. */
export class ConfigError extends PlacidError {
  readonly retryable = false;
}

/** A request that the engine cannot evaluate (Nova would raise; Placid explains). */
export class RequestError extends PlacidError {
  readonly retryable = false;
}
