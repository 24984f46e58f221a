/**
 * Instance state items: the latest report per instance, found by uuid or by host. Written by
 * instanceWrites.ts.
 */
import { GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { InstanceReport } from '../model/reports.js';
import { epochSeconds, type StoreContext } from './context.js';
import { queryAll } from './paginate.js';
import { INSTANCES_BY_HOST } from './tables.js';

type Item = Record<string, unknown>;

/** An instance as stored: its report without the samples (those live in the samples table). */
export type StoredInstance = Omit<InstanceReport, 'samples'>;

export async function getInstance(ctx: StoreContext, uuid: string): Promise<StoredInstance | undefined> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.instances, Key: { uuid }, ConsistentRead: true }),
  );
  return Item && !expired(ctx, Item) ? instanceFromItem(Item) : undefined;
}

/** The instances whose latest report puts them on `host`, expired ones left out. */
export async function instancesByHost(ctx: StoreContext, host: string): Promise<StoredInstance[]> {
  const items = await queryAll(ctx, {
    TableName: ctx.tables.instances,
    IndexName: INSTANCES_BY_HOST,
    KeyConditionExpression: '#host = :host',
    FilterExpression: '#expires_at > :now',
    ExpressionAttributeNames: { '#host': 'host', '#expires_at': 'expires_at' },
    ExpressionAttributeValues: { ':host': host, ':now': epochSeconds(ctx.clock.now()) },
  });
  return items.map(instanceFromItem);
}

/**
 * Every unexpired instance (a Scan: the fleet view, and a planning detection, which needs every
 * VM's flavor, role and server group). Only `state` comes back: it holds the whole report, and
 * the SDK then unmarshals one attribute an item, not nine (200,000 items at 10,000 hosts). Each
 * page is parsed as it arrives, so its raw text is garbage before the next (about 150 MB at 10,000
 * hosts if the whole Scan were held first).
 */
export async function listInstances(ctx: StoreContext): Promise<StoredInstance[]> {
  const pages = paginateScan(
    { client: ctx.doc },
    {
      TableName: ctx.tables.instances,
      FilterExpression: '#expires_at > :now',
      ProjectionExpression: '#state',
      ExpressionAttributeNames: { '#expires_at': 'expires_at', '#state': 'state' },
      ExpressionAttributeValues: { ':now': epochSeconds(ctx.clock.now()) },
    },
  );
  const out: StoredInstance[] = [];
  for await (const page of pages) for (const item of page.Items ?? []) out.push(instanceFromItem(item));
  return out;
}

// DynamoDB deletes expired items up to days late, and dynalite never does: readers check themselves.
function expired(ctx: StoreContext, item: Item): boolean {
  return Number(item.expires_at) <= epochSeconds(ctx.clock.now());
}

function instanceFromItem(item: Item): StoredInstance {
  return JSON.parse(item.state as string) as StoredInstance;
}
