/** Instance state items: the latest report per instance, found by uuid or by host. */
import { GetCommand, PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { InstanceReport } from '../model/reports.js';
import { epochSeconds, type StoreContext } from './context.js';
import type { WriteOutcome } from './hostWrites.js';
import { isConditionFailed } from './retry.js';
import { INSTANCES_BY_HOST } from './tables.js';

type Item = Record<string, unknown>;

/** An instance as stored: its report without the samples (those live in the samples table). */
export type StoredInstance = Omit<InstanceReport, 'samples'>;

/** Stores one instance report; 'stale' when the stored report is as new or newer. */
export async function putInstanceReport(ctx: StoreContext, report: InstanceReport): Promise<WriteOutcome> {
  const { samples: _samples, ...state } = report;
  const now = ctx.clock().getTime();
  try {
    await ctx.doc.send(
      new PutCommand({
        TableName: ctx.tables.instances,
        Item: {
          uuid: report.uuid,
          host: report.host,
          nodename: report.nodename,
          availability_zone: report.availability_zone,
          reported_at: report.reported_at,
          updated_at: now,
          // Vanished instances (deleted, or moved out of the reporting scope) age out.
          expires_at: epochSeconds(Date.parse(report.reported_at)) + ctx.instanceRetentionSeconds,
          state: JSON.stringify(state),
        },
        ConditionExpression: 'attribute_not_exists(#uuid) OR #reported_at < :reported_at',
        ExpressionAttributeNames: { '#uuid': 'uuid', '#reported_at': 'reported_at' },
        ExpressionAttributeValues: { ':reported_at': report.reported_at },
      }),
    );
    return 'stored';
  } catch (error) {
    if (isConditionFailed(error)) return 'stale';
    throw error;
  }
}

export async function getInstance(ctx: StoreContext, uuid: string): Promise<StoredInstance | undefined> {
  const { Item } = await ctx.doc.send(
    new GetCommand({ TableName: ctx.tables.instances, Key: { uuid }, ConsistentRead: true }),
  );
  return Item && !expired(ctx, Item) ? instanceFromItem(Item) : undefined;
}

/** The instances whose latest report puts them on `host`, expired ones left out. */
export async function instancesByHost(ctx: StoreContext, host: string): Promise<StoredInstance[]> {
  return readAll((startKey) =>
    ctx.doc.send(
      new QueryCommand({
        TableName: ctx.tables.instances,
        IndexName: INSTANCES_BY_HOST,
        KeyConditionExpression: '#host = :host',
        FilterExpression: '#expires_at > :now',
        ExpressionAttributeNames: { '#host': 'host', '#expires_at': 'expires_at' },
        ExpressionAttributeValues: { ':host': host, ':now': epochSeconds(ctx.clock().getTime()) },
        ExclusiveStartKey: startKey,
      }),
    ),
  );
}

/** Every unexpired instance (a Scan; for the fleet view, not for hot paths). */
export async function listInstances(ctx: StoreContext): Promise<StoredInstance[]> {
  return readAll((startKey) =>
    ctx.doc.send(
      new ScanCommand({
        TableName: ctx.tables.instances,
        FilterExpression: '#expires_at > :now',
        ExpressionAttributeNames: { '#expires_at': 'expires_at' },
        ExpressionAttributeValues: { ':now': epochSeconds(ctx.clock().getTime()) },
        ExclusiveStartKey: startKey,
      }),
    ),
  );
}

type Page = { Items?: Item[]; LastEvaluatedKey?: Item };

async function readAll(read: (startKey?: Item) => Promise<Page>): Promise<StoredInstance[]> {
  const out: StoredInstance[] = [];
  let startKey: Item | undefined;
  do {
    const page = await read(startKey);
    for (const item of page.Items ?? []) out.push(instanceFromItem(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}

// DynamoDB deletes expired items up to days late, and dynalite never does: readers check themselves.
function expired(ctx: StoreContext, item: Item): boolean {
  return Number(item.expires_at) <= epochSeconds(ctx.clock().getTime());
}

function instanceFromItem(item: Item): StoredInstance {
  return JSON.parse(item.state as string) as StoredInstance;
}
