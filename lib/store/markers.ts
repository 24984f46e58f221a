/** Marker items: single named items of the `leases` table (names start with `#`, apart from lease names). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreContext } from './context.js';

/** One string attribute of marker item `name`, read consistently; null when the item or attribute is missing. */
export async function readMarker(ctx: StoreContext, name: string, attribute: string): Promise<string | null> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.leases, Key: { name }, ConsistentRead: true }),
  );
  const value = Item?.[attribute];
  return typeof value === 'string' ? value : null;
}
