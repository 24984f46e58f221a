/** Which failures are worth retrying later (HTTP 503, SQS redelivery); the rules live in lib/queue/failure.ts. */
import { isTransientFailure } from '../queue/failure.js';

/**
 * True for DynamoDB/SQS throttling and server-side faults, network failures, and typed errors that
 * say `retryable` (a conditional write that kept losing, a batch still unprocessed).
 */
export const isTransient = (error: unknown): boolean => isTransientFailure(error);
