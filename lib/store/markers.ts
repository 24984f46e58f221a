/** Marker items: single named items of the `leases` table (names start with `#`, apart from lease names). */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';

/** One string attribute of marker item `name`, read consistently; null when the item or attribute is missing. */
export async function readMarker(ctx: StoreContext, name: string, attribute: string): Promise<string | null> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.leases, Key: { name }, ConsistentRead: true }),
  );
  const value = Item?.[attribute];
  return typeof value === 'string' ? value : null;
}

/** The expressions of a marker update (the table and key come from the marker's name). */
export interface MarkerUpdate {
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * Updates marker item `name` if `update`'s condition holds: true when written, false when not.
 * UpdateItem, not PutItem: the ingest Lambda's role allows only updates on this table.
 */
export function updateMarkerIf(ctx: StoreContext, name: string, update: MarkerUpdate): Promise<boolean> {
  return sendIfCondition(ctx, new UpdateCommand({ TableName: ctx.tables.leases, Key: { name }, ...update }));
}
