/** Reading every page of a DynamoDB Query or Scan. */

export type Item = Record<string, unknown>;

interface Page {
  Items?: object[];
  LastEvaluatedKey?: Item;
}

/**
 * Every item of a paginated read: `read(startKey)` sends one page's request, starting after
 * `startKey` (undefined for the first page), until DynamoDB stops returning a LastEvaluatedKey.
 * @example const items = await allItems((startKey) => doc.send(new ScanCommand({ TableName, ExclusiveStartKey: startKey })));
 */
export async function allItems<T = Item>(read: (startKey: Item | undefined) => Promise<Page>): Promise<T[]> {
  const items: T[] = [];
  let startKey: Item | undefined;
  do {
    const page = await read(startKey);
    // The caller knows the item shape of its table; DynamoDB returns plain attribute maps.
    if (page.Items) items.push(...(page.Items as T[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
