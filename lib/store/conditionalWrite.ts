/**
 * Conditional writes: a condition that does not hold is an expected outcome (someone else got
 * there first, the stored item is newer), not a failure, so it comes back as a value.
 */
import type {
  DynamoDBDocumentClient,
  PutCommand,
  UpdateCommand,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';

/** True when a conditional write's condition did not hold. */
function isConditionFailed(error: unknown): boolean {
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
  return (await updateIfCondition(ctx, command as UpdateCommand)) !== undefined;
}

/**
 * Sends a conditional UpdateItem: its output (e.g. `ReturnValues`) when it was written, undefined
 * when its condition did not hold; any other error is thrown.
 */
export async function updateIfCondition(
  ctx: { doc: DynamoDBDocumentClient },
  command: UpdateCommand,
): Promise<UpdateCommandOutput | undefined> {
  try {
    return await ctx.doc.send(command);
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}
