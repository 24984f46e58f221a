/** Reading host states: one host, the whole fleet, or only what changed since a cursor. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreContext } from './context.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { hostFromItem, type StoredHost } from './hostItems.js';
import { queryAll, scanAll } from './paginate.js';
import { HOST_CHANGE_SHARDS, HOSTS_BY_CHANGE } from './tables.js';

type Item = Record<string, unknown>;

export interface HostChanges {
  /** Hosts written since the cursor (minus the overlap); may repeat ones seen before: keep the highest version. */
  hosts: StoredHost[];
  /** Pass to the next call. */
  cursor: string;
}

/** One node of a host (`nodename` defaults to `host`, as for libvirt). */
export async function getHost(
  ctx: StoreContext,
  host: string,
  nodename = host,
): Promise<StoredHost | undefined> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.hosts, Key: { host, nodename }, ConsistentRead: true }),
  );
  return Item ? hostFromItem(Item) : undefined;
}

/**
 * Whether the store holds node (`host`, `nodename`): a consistent read, so a node reported a moment
 * ago by another Lambda counts; of the key only, since a host item can be tens of KiB.
 */
export async function hasNode(ctx: StoreContext, host: string, nodename: string): Promise<boolean> {
  const { Item } = await ctx.doc.send(
    new GetCommand({
      TableName: ctx.tables.hosts,
      Key: { host, nodename },
      ProjectionExpression: '#host',
      ExpressionAttributeNames: { '#host': 'host' },
      ConsistentRead: true,
    }),
  );
  return Item !== undefined;
}

/** Every stored host, read page by page (`pageSize` items per Scan call). */
export async function listHosts(ctx: StoreContext, pageSize = 500): Promise<StoredHost[]> {
  const items = await scanAll(ctx, { TableName: ctx.tables.hosts, Limit: pageSize });
  return items.map((item) => hostFromItem(item));
}

/**
 * Hosts whose item changed (report or claim) since `cursor`; everything when there is no cursor.
 * The cursor is the reader's clock when the read began. Each shard is read from
 * `since - changeOverlapMs`, because writers stamp `updated_at` with their own clocks and a write
 * can commit after a read that covered its stamp. The snapshot that calls this should still do a
 * full listHosts now and then (e.g. every few minutes) as a backstop. A reader that also reads with
 * the full overlap often enough may pass a shorter `overlapMs` in between (FleetSnapshot's
 * quickOverlapMs).
 */
export async function hostsChangedSince(
  ctx: StoreContext,
  cursor?: string,
  overlapMs = ctx.changeOverlapMs,
): Promise<HostChanges> {
  const since = decodeCursor(cursor);
  const readStart = ctx.clock.now();
  const from = since > 0 ? since - overlapMs : -1;
  const shards = Array.from({ length: HOST_CHANGE_SHARDS }, (_, i) => String(i));
  const pages = await Promise.all(shards.map((shard) => queryShard(ctx, shard, from)));
  // A host lives in exactly one shard, so the pages never overlap.
  return { hosts: pages.flat().map(hostFromItem), cursor: encodeCursor(readStart) };
}

async function queryShard(ctx: StoreContext, shard: string, from: number): Promise<Item[]> {
  return queryAll(ctx, {
    TableName: ctx.tables.hosts,
    IndexName: HOSTS_BY_CHANGE,
    KeyConditionExpression: '#shard = :shard AND #updated_at > :from',
    ExpressionAttributeNames: { '#shard': 'change_shard', '#updated_at': 'updated_at' },
    ExpressionAttributeValues: { ':shard': shard, ':from': from },
  });
}
