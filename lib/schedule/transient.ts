/** Which failures are worth retrying later (HTTP 503, SQS redelivery) rather than reporting as a bug. */
import { QueueSendError } from '../queue/errors.js';
import { StoreError } from '../store/errors.js';
import { isThrottling } from '../store/retry.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * True for DynamoDB/SQS throttling and server-side faults, network failures, and the store's own
 * retryable errors (a conditional write that kept losing, a batch still unprocessed).
 */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StoreError) return error.retryable;
  if (error instanceof QueueSendError) return !error.senderFault;
  const sdk = error as { $fault?: string; $retryable?: unknown; code?: string };
  return (
    isThrottling(error) ||
    sdk.$fault === 'server' ||
    sdk.$retryable !== undefined ||
    error.name === 'TimeoutError' ||
    (sdk.code !== undefined && NETWORK_CODES.has(sdk.code))
  );
}
