/** Reading every page of a DynamoDB Query or Scan, through the SDK's own paginators. */
import {
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { StoreContext } from './context.js';

export type Item = Record<string, unknown>;

/** The items of every page, in order. */
async function collect<T>(pages: AsyncIterable<{ Items?: Item[] }>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pages) items.push(...((page.Items ?? []) as T[]));
  return items;
}

/**
 * Every item a Query returns, page after page until DynamoDB stops returning a LastEvaluatedKey.
 * The caller knows the item shape of its table; DynamoDB returns plain attribute maps.
 */
export function queryAll<T = Item>(ctx: Pick<StoreContext, 'doc'>, input: QueryCommandInput): Promise<T[]> {
  return collect<T>(paginateQuery({ client: ctx.doc }, input));
}

/** Every item a Scan returns (`Limit` in `input` sets the page size). */
export function scanAll<T = Item>(ctx: Pick<StoreContext, 'doc'>, input: ScanCommandInput): Promise<T[]> {
  return collect<T>(paginateScan({ client: ctx.doc }, input));
}
