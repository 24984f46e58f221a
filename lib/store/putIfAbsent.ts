/** The store's one "create unless it exists" write. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { sendIfCondition } from './conditionalWrite.js';
import type { StoreContext } from './context.js';

/**
 * Writes `item` unless an item with the same key is stored already (`keyAttribute`: the table's
 * partition key; a conditional Put compares whole keys, so that one attribute is enough). True when
 * this call wrote it; false when one was there, which stays as it is. Redelivered and repeated
 * writers (deterministic ids) rely on that: the first write wins.
 */
export function putIfAbsent(
  ctx: Pick<StoreContext, 'doc'>,
  table: string,
  item: object,
  keyAttribute: string,
): Promise<boolean> {
  return sendIfCondition(
    ctx,
    new PutCommand({
      TableName: table,
      // A typed item is a plain attribute map to DynamoDB.
      Item: item as Record<string, unknown>,
      ConditionExpression: 'attribute_not_exists(#key)',
      ExpressionAttributeNames: { '#key': keyAttribute },
    }),
  );
}
