/**
 * Samples: immutable items keyed by (entity, ts), so a redelivered report rewrites the same items
 * and changes nothing. Written in batches; read as a time window for the detector.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HostSample, HypervisorReport, InstanceReport, InstanceSample } from '../model/reports.js';
import { type BatchWriteStats, batchPut } from './batchWriter.js';
import { epochSeconds, type StoreContext } from './context.js';
import { TABLES } from './tables.js';

export type SampleEntity =
  | { kind: 'host'; host: string; nodename: string }
  | { kind: 'instance'; uuid: string };

/** One stored sample; instance samples also say which host the instance was on. */
export type StoredSample = (HostSample | InstanceSample) & { ts: string; host?: string };

/** The partition key of an entity's samples; components are URI-encoded so `/` in a name cannot collide. */
export function entityKey(entity: SampleEntity): string {
  if (entity.kind === 'instance') return `instance/${encodeURIComponent(entity.uuid)}`;
  return `host/${encodeURIComponent(entity.host)}/${encodeURIComponent(entity.nodename)}`;
}

/** Sample items of a set of reports, each expiring `sampleRetentionSeconds` after its own ts. */
export function sampleItems(
  ctx: StoreContext,
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Record<string, unknown>[] {
  const item = (entity: string, sample: { ts: string }, extra: Record<string, unknown> = {}) => ({
    entity,
    ...sample,
    ...extra,
    expires_at: epochSeconds(Date.parse(sample.ts)) + ctx.sampleRetentionSeconds,
  });
  const items: Record<string, unknown>[] = [];
  for (const h of hypervisors) {
    const entity = entityKey({ kind: 'host', host: h.host, nodename: h.nodename });
    for (const s of h.samples) items.push(item(entity, s));
  }
  for (const i of instances) {
    const entity = entityKey({ kind: 'instance', uuid: i.uuid });
    for (const s of i.samples) items.push(item(entity, s, { host: i.host }));
  }
  return items;
}

/** Writes the samples of a set of reports with BatchWriteItem. */
export function putSamples(
  ctx: StoreContext,
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Promise<BatchWriteStats> {
  return batchPut(ctx.doc, TABLES.samples, ctx.tables.samples, sampleItems(ctx, hypervisors, instances), {
    retry: ctx.retry,
    concurrency: ctx.concurrency,
  });
}

/** The entity's unexpired samples with `from <= ts <= to`, oldest first. */
export async function samplesFor(
  ctx: StoreContext,
  entity: SampleEntity,
  from: Date,
  to: Date,
): Promise<StoredSample[]> {
  const out: StoredSample[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await ctx.doc.send(
      new QueryCommand({
        TableName: ctx.tables.samples,
        KeyConditionExpression: '#entity = :entity AND #ts BETWEEN :from AND :to',
        FilterExpression: '#expires_at > :now',
        ExpressionAttributeNames: { '#entity': 'entity', '#ts': 'ts', '#expires_at': 'expires_at' },
        ExpressionAttributeValues: {
          ':entity': entityKey(entity),
          ':from': from.toISOString(),
          ':to': to.toISOString(),
          ':now': epochSeconds(ctx.clock().getTime()),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const { entity: _e, expires_at: _x, ...sample } of page.Items ?? [])
      out.push(sample as StoredSample);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return out;
}
