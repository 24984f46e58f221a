/**
 * Reading host states: one host, the whole fleet, or only what changed since a cursor. Each read
 * also takes the nodes' recent sightings (hostSightings.ts) as their heartbeat: a host whose
 * unchanged state was not rewritten is still up while it keeps reporting.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoreContext } from './context.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { hostFromItem, nodeKey, type StoredHost } from './hostItems.js';
import { type Sightings, sightingsSince } from './hostSightings.js';
import { queryAll, scanAll } from './paginate.js';
import { HOST_CHANGE_SHARDS, HOSTS_BY_CHANGE } from './tables.js';

type Item = Record<string, unknown>;

export interface HostChanges {
  /** Hosts written since the cursor (minus the overlap); may repeat ones seen before: keep the highest version. */
  hosts: StoredHost[];
  /** Pass to the next call. */
  cursor: string;
  /**
   * The newest sighting of each node seen since the cursor (already applied to `hosts`): a reader
   * holding hosts must apply them to hosts whose items did not change (StoredHost withSeen).
   */
  sightings: Sightings;
}

const seenOf = (sightings: Sightings, item: Item): string | undefined =>
  sightings.get(nodeKey(item.host as string, item.nodename as string));

/** One node of a host (`nodename` defaults to `host`, as for libvirt). */
export async function getHost(
  ctx: StoreContext,
  host: string,
  nodename = host,
): Promise<StoredHost | undefined> {
  const [{ Item }, sightings] = await Promise.all([
    ctx.doc.send(
      new GetCommand({ TableName: ctx.tables.hosts, Key: { host, nodename }, ConsistentRead: true }),
    ),
    sightingsSince(ctx),
  ]);
  return Item ? hostFromItem(Item, seenOf(sightings, Item)) : undefined;
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
  const [items, sightings] = await Promise.all([
    scanAll(ctx, { TableName: ctx.tables.hosts, Limit: pageSize }),
    sightingsSince(ctx),
  ]);
  return items.map((item) => hostFromItem(item, seenOf(sightings, item)));
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
  const [pages, sightings] = await Promise.all([
    Promise.all(shards.map((shard) => queryShard(ctx, shard, from))),
    // Without a cursor: every sighting still in the lookback.
    sightingsSince(ctx, from),
  ]);
  // A host lives in exactly one shard, so the pages never overlap.
  const hosts = pages.flat().map((item) => hostFromItem(item, seenOf(sightings, item)));
  return { hosts, cursor: encodeCursor(readStart), sightings };
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
