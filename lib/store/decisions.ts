/** Scheduling decisions, one per request id; the first one recorded wins, so redelivery cannot rewrite it. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type StoreContext } from './context.js';
import { putIfAbsent } from './putIfAbsent.js';

export interface DecisionRecord<D = unknown> {
  request_id: string;
  /** ISO-8601, when it was recorded. */
  decided_at: string;
  /** The schedule stage's JSON (hosts, alternates, explanation); stored as a JSON string. */
  decision: D;
}

/** Records a decision; false when one is already recorded for this request id (that one stays). */
export async function putDecision(ctx: StoreContext, requestId: string, decision: unknown): Promise<boolean> {
  const now = new Date(ctx.clock.now());
  const item = {
    request_id: requestId,
    decided_at: now.toISOString(),
    decision: JSON.stringify(decision),
    expires_at: epochSeconds(now.getTime()) + ctx.decisionRetentionSeconds,
  };
  return putIfAbsent(ctx, ctx.tables.decisions, item, 'request_id');
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
