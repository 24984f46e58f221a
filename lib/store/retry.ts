/** The store's own retry defaults (unprocessed batch items, throttling that outlived the SDK's retries). */
import type { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RetryPolicy } from '../model/backoff.js';
import { systemClock } from '../model/clock.js';

export type { RetryPolicy } from '../model/backoff.js';

/** `maxAttempts`: calls per batch, the first included; then the remaining items fail with BatchWriteError. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 50,
  maxDelayMs: 5_000,
  sleep: systemClock.sleep,
  random: Math.random,
};

/** True when a conditional write's condition did not hold (an expected outcome, not a failure). */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * Sends a conditional write: true when it was written, false when its condition did not hold;
 * any other error is thrown.
 */
export async function sendIfCondition(
  ctx: { doc: DynamoDBDocumentClient },
  command: PutCommand | UpdateCommand,
): Promise<boolean> {
  try {
    await ctx.doc.send(command as UpdateCommand);
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
