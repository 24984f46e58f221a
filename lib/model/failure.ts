/**
 * One answer to "can trying again help?" for every stage: queue consumers (SQS redelivery or the
 * dead-letter queue), the schedule endpoint (503 or 4xx), the workflow (Retry or Catch) and the
 * drivers' idempotent reads. Placid's own errors carry the answer as a boolean `retryable`; the AWS
 * SDK's and Node's are read here, once.
 *
 * transient: retry later (throttling, server faults, the network, a typed error that says so).
 * permanent: the input can never succeed (dead-letter it with its reason on first sight, HTTP 4xx).
 * unknown: a bug or a failure nobody named: retried, so SQS's own redrive policy bounds it rather
 *   than one unlucky network error losing a message.
 */

export type FailureKind = 'transient' | 'permanent' | 'unknown';

/** What a typed error says about itself. */
export interface RetryHint {
  readonly retryable: boolean;
  /** How long the remote end asked to be left alone (`Retry-After`), when it said. */
  readonly retryAfterMs?: number;
}

/** DynamoDB's "slow down" errors (and the SDK's own marker), safe to retry after a pause. */
const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);

/** Server-side DynamoDB errors, whatever `$fault` a given SDK version stamps on them. */
const SERVER_ERRORS = new Set(['InternalServerError', 'ServiceUnavailable']);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * Errors JavaScript raises the same way for the same input: a lone surrogate in encodeURIComponent
 * (URIError), a number lib-dynamodb cannot marshal (RangeError/TypeError in newer SDKs).
 */
const DETERMINISTIC_ERRORS = new Set(['TypeError', 'RangeError', 'URIError', 'SyntaxError']);

/** lib-dynamodb's marshalling refusals are plain Errors; these say the value itself is wrong. */
const MARSHALLING = [
  /is (greater|lower) than Number\.(MAX|MIN)_SAFE_INTEGER/,
  /imprecise number/,
  /Special numeric value .* is not allowed/,
  /outside SAFE_INTEGER bounds/,
  /Unsupported type passed/,
];

/** True for DynamoDB's throttling errors (the batch writer retries only these in-process). */
export function isThrottling(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const sdk = (error as { $retryable?: { throttling?: boolean } }).$retryable;
  return THROTTLING_ERRORS.has(error.name) || sdk?.throttling === true;
}

/**
 * How `error` should be handled. A typed error decides for itself through its boolean `retryable`
 * (ValidationError and the other input errors say false; StoreError subclasses say which).
 */
export function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof Error)) return 'unknown';
  const own = (error as { retryable?: unknown }).retryable;
  if (typeof own === 'boolean') return own ? 'transient' : 'permanent';
  const sdk = error as { $fault?: string; $retryable?: unknown; code?: string };
  if (
    isThrottling(error) ||
    SERVER_ERRORS.has(error.name) ||
    sdk.$fault === 'server' ||
    sdk.$retryable !== undefined ||
    error.name === 'TimeoutError' ||
    (sdk.code !== undefined && NETWORK_CODES.has(sdk.code))
  ) {
    return 'transient';
  }
  // A request DynamoDB or SQS refused as malformed (e.g. a number DynamoDB cannot store).
  if (sdk.$fault === 'client') return 'permanent';
  if (DETERMINISTIC_ERRORS.has(error.name)) return 'permanent';
  if (MARSHALLING.some((re) => re.test(error.message))) return 'permanent';
  return 'unknown';
}

/** True when retrying can never help: a queued message goes to the dead-letter queue at once. */
export const isPermanentFailure = (error: unknown): boolean => classifyFailure(error) === 'permanent';

/** True for throttling, server faults, the network, and typed errors that say `retryable`. */
export const isRetryable = (error: unknown): boolean => classifyFailure(error) === 'transient';

/** The `Retry-After` a typed error carries, if any. */
export function retryAfterOf(error: unknown): number | undefined {
  const ms = (error as Partial<RetryHint> | null)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
