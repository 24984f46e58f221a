/**
 * Host sightings: the heartbeat of hosts whose state write was skipped. Ingest does not rewrite a
 * host item whose state is unchanged (writeMemo.ts), so the item's `reported_at` can lag a live
 * host by up to the host heartbeat (15 min), far beyond `service_down_time`. Each ingest batch
 * instead writes one item listing the nodes it saw unchanged and when, in the `samples` table
 * (it has TTL) under an hour partition `seen#<hour>`; readers take each node's newest sighting
 * of the last few minutes as its heartbeat when that is newer than the item's report.
 *
 * There is no per-node sighting item: one per node would multiply the ingest writes this saves.
 * Hour partitions (sort key: the writer's time) let one Query read the whole lookback (two across
 * an hour boundary); minute partitions took one Query per minute, even for a single host.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds, type StoreContext } from './context.js';
import { nodeKey } from './hostItems.js';
import { queryAll } from './paginate.js';

/** A node seen reporting an unchanged state at `reported_at`. */
export interface Sighting {
  host: string;
  nodename: string;
  reported_at: string;
}

/** The newest sighting of each node, by nodeKey (`host\u0000nodename`). */
export type Sightings = Map<string, string>;

/** Nodes per item: [host, nodename, reported_at] triples stay far below DynamoDB's 400 KB item limit. */
export const SIGHTINGS_PER_ITEM = 2_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A writer's clock may run this far ahead of a reader's; its newest stamps are read too. */
const SKEW_MS = MINUTE_MS;

/** `seen#2026-12-01T12`: the hour of `ms`. */
const partition = (ms: number): string =>
  `seen#${new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13)}`;

/**
 * The items for `sightings`: one (more only past SIGHTINGS_PER_ITEM), keyed by the writer's clock
 * and a random suffix, so two batches in the same millisecond never overwrite each other. The
 * ingest stage writes them in its sample pages' BatchWriteItem calls (same table, no condition).
 */
export function sightingItems(ctx: StoreContext, sightings: readonly Sighting[]): Record<string, unknown>[] {
  const now = ctx.clock.now();
  const stamp = new Date(now).toISOString();
  // Readers may look back further than this writer (ingest knows no service_down_time); none needs
  // a sighting older than the host heartbeat, by which time the host's item is rewritten.
  const expires = epochSeconds(now + Math.max(ctx.sightingLookbackMs, ctx.hostHeartbeatMs) + MINUTE_MS);
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < sightings.length; i += SIGHTINGS_PER_ITEM) {
    const nodes = sightings.slice(i, i + SIGHTINGS_PER_ITEM).map((s) => [s.host, s.nodename, s.reported_at]);
    items.push({ entity: partition(now), ts: `${stamp}#${randomUUID()}`, nodes, expires_at: expires });
  }
  return items;
}

/** Writes `sightings` as sightingItems, one PutItem each. */
export async function putSightings(ctx: StoreContext, sightings: readonly Sighting[]): Promise<number> {
  const items = sightingItems(ctx, sightings);
  for (const Item of items) await ctx.doc.send(new PutCommand({ TableName: ctx.tables.samples, Item }));
  return items.length;
}

/**
 * The newest sighting of each node among the items written after `fromMs` (by their writers'
 * clocks), never further back than the store's sighting lookback. Expired items are skipped
 * (dynalite never deletes them).
 */
export async function sightingsSince(
  ctx: StoreContext,
  fromMs = Number.NEGATIVE_INFINITY,
): Promise<Sightings> {
  const now = ctx.clock.now();
  const from = Math.max(fromMs, now - ctx.sightingLookbackMs);
  const hours: number[] = [];
  for (let hour = Math.floor(from / HOUR_MS); hour <= Math.floor((now + SKEW_MS) / HOUR_MS); hour++)
    hours.push(hour);
  const pages = await Promise.all(
    hours.map((hour) =>
      queryAll(ctx, {
        TableName: ctx.tables.samples,
        KeyConditionExpression: '#entity = :entity AND #ts > :from',
        FilterExpression: '#expires_at > :now',
        ExpressionAttributeNames: { '#entity': 'entity', '#ts': 'ts', '#expires_at': 'expires_at' },
        ExpressionAttributeValues: {
          ':entity': partition(hour * HOUR_MS),
          ':from': new Date(from).toISOString(),
          ':now': epochSeconds(now),
        },
      }),
    ),
  );
  const newest: Sightings = new Map();
  for (const item of pages.flat()) {
    for (const [host, nodename, reportedAt] of item.nodes as [string, string, string][]) {
      const k = nodeKey(host, nodename);
      const held = newest.get(k);
      // A redelivered old sighting must not move a node's heartbeat backwards.
      if (held === undefined || Date.parse(reportedAt) > Date.parse(held)) newest.set(k, reportedAt);
    }
  }
  return newest;
}
