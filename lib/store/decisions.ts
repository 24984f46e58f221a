/** Scheduling decisions, one per request id; the first one recorded wins, so redelivery cannot rewrite it. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type StoreContext } from './context.js';
import { isConditionFailed } from './retry.js';

export interface DecisionRecord<D = unknown> {
  request_id: string;
  /** ISO-8601, when it was recorded. */
  decided_at: string;
  /** The schedule stage's JSON (hosts, alternates, explanation); stored as a JSON string. */
  decision: D;
}

/** Records a decision; false when one is already recorded for this request id (that one stays). */
export async function putDecision(ctx: StoreContext, requestId: string, decision: unknown): Promise<boolean> {
  const now = ctx.clock();
  try {
    await ctx.doc.send(
      new PutCommand({
        TableName: ctx.tables.decisions,
        Item: {
          request_id: requestId,
          decided_at: now.toISOString(),
          decision: JSON.stringify(decision),
          expires_at: epochSeconds(now.getTime()) + ctx.decisionRetentionSeconds,
        },
        ConditionExpression: 'attribute_not_exists(#request_id)',
        ExpressionAttributeNames: { '#request_id': 'request_id' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export async function getDecision<D = unknown>(
  ctx: StoreContext,
  requestId: string,
): Promise<DecisionRecord<D> | undefined> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.decisions, Key: { request_id: requestId }, ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    request_id: Item.request_id as string,
    decided_at: Item.decided_at as string,
    decision: JSON.parse(Item.decision as string) as D,
  };
}
