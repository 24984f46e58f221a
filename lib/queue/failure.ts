/**
 * One classification of failures for every queue consumer and endpoint: transient (retry later:
 * SQS redelivery, HTTP 503), permanent (the input can never succeed: dead-letter it with its reason
 * on first sight, HTTP 4xx), or unknown (a bug or a failure nobody named: retried, so SQS's own
 * redrive policy bounds it rather than one unlucky network error losing a message).
 */
import { isThrottling } from '../store/retry.js';
import { QueueSendError } from './errors.js';

export type FailureKind = 'transient' | 'permanent' | 'unknown';

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

/**
 * How `error` should be handled. Typed errors decide for themselves through a boolean `retryable`
 * (ValidationError and the other input errors say false; StoreError subclasses say which).
 */
export function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof Error)) return 'unknown';
  const own = (error as { retryable?: unknown }).retryable;
  if (typeof own === 'boolean') return own ? 'transient' : 'permanent';
  if (error instanceof QueueSendError) return error.senderFault ? 'permanent' : 'transient';
  const sdk = error as { $fault?: string; $retryable?: unknown; code?: string };
  if (
    isThrottling(error) ||
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

/** True when retrying can never help: the message goes to the dead-letter queue at once. */
export const isPermanentFailure = (error: unknown): boolean => classifyFailure(error) === 'permanent';

/** True for throttling, server faults, the network, and typed errors that say `retryable`. */
export const isTransientFailure = (error: unknown): boolean => classifyFailure(error) === 'transient';
