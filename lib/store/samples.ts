/**
 * Reading samples, stored as pages per compute node (samplePages.ts, written by sampleWrites.ts):
 * a node's time window is one paginated Query. An instance's samples live on the pages of the
 * node it was reported on, so reading them needs that node.
 */
import type { HostSample, InstanceSample } from '../model/reports.js';
import { epochSeconds, type StoreContext } from './context.js';
import { queryAll } from './paginate.js';
import { MAX_PAGE_SPAN_MS, type NodeRef, nodeEntityKey, pageContent } from './samplePages.js';

export type SampleEntity =
  | { kind: 'host'; host: string; nodename: string }
  /** An instance's samples taken on one node, or on any of several (e.g. a migration's source and destination). */
  | { kind: 'instance'; uuid: string; host: string; nodename: string }
  | { kind: 'instance'; uuid: string; nodes: readonly NodeRef[] };

/** One stored sample; instance samples also say which host they were reported on. */
export type StoredSample = (HostSample | InstanceSample) & { ts: string; host?: string };

/** A node's samples in a window: its own and those of the instances reported on it, oldest first. */
export interface NodeWindow {
  host: HostSample[];
  instances: Map<string, InstanceSample[]>;
}

/**
 * The node's unexpired samples with `from <= ts <= to`, oldest first; a sample stored twice (the
 * same ts in two pages, e.g. an agent resending it) is returned once, from the later page.
 */
export async function nodeWindow(
  ctx: StoreContext,
  host: string,
  nodename: string,
  from: Date,
  to: Date,
): Promise<NodeWindow> {
  const hostSamples = new Map<string, HostSample>();
  const vmSamples = new Map<string, Map<string, InstanceSample>>();
  const lo = from.toISOString();
  const hi = to.toISOString();
  const inWindow = (s: { ts: string }) => s.ts >= lo && s.ts <= hi;
  for (const item of await queryPages(ctx, { host, nodename }, from, to)) {
    const content = pageContent(item);
    for (const s of content.host) if (inWindow(s)) hostSamples.set(s.ts, s);
    for (const [uuid, samples] of content.instances) {
      const byTs = vmSamples.get(uuid) ?? new Map<string, InstanceSample>();
      for (const s of samples) if (inWindow(s)) byTs.set(s.ts, s);
      if (byTs.size > 0) vmSamples.set(uuid, byTs);
    }
  }
  const instances = new Map<string, InstanceSample[]>();
  for (const [uuid, byTs] of vmSamples) instances.set(uuid, byTime(byTs));
  return { host: byTime(hostSamples), instances };
}

/** An entity's samples in the window, oldest first; an instance's from the node(s) the caller names. */
export async function samplesFor(
  ctx: StoreContext,
  entity: SampleEntity,
  from: Date,
  to: Date,
): Promise<StoredSample[]> {
  if (entity.kind === 'host') return (await nodeWindow(ctx, entity.host, entity.nodename, from, to)).host;
  const nodes = 'nodes' in entity ? entity.nodes : [{ host: entity.host, nodename: entity.nodename }];
  const byTs = new Map<string, StoredSample>();
  for (const node of nodes) {
    const window = await nodeWindow(ctx, node.host, node.nodename, from, to);
    for (const s of window.instances.get(entity.uuid) ?? []) byTs.set(s.ts, { ...s, host: node.host });
  }
  return byTime(byTs);
}

/**
 * The pages that can hold samples of [from, to]: their newest sample is at or after `from` and at
 * most a page span after `to`, and their oldest is not after `to`. Unexpired only: DynamoDB deletes
 * expired items up to days late and dynalite never does.
 */
async function queryPages(
  ctx: StoreContext,
  node: NodeRef,
  from: Date,
  to: Date,
): Promise<Record<string, unknown>[]> {
  if (from.getTime() > to.getTime()) return [];
  return queryAll(ctx, {
    TableName: ctx.tables.samples,
    KeyConditionExpression: '#entity = :entity AND #ts BETWEEN :low AND :high',
    FilterExpression: '#expires_at > :now AND #first_ts <= :to',
    ExpressionAttributeNames: {
      '#entity': 'entity',
      '#ts': 'ts',
      '#expires_at': 'expires_at',
      '#first_ts': 'first_ts',
    },
    ExpressionAttributeValues: {
      ':entity': nodeEntityKey(node),
      ':low': from.toISOString(),
      // Sort keys are `<ts>#<hash>`: this bound admits every hash of the last instant.
      ':high': `${new Date(to.getTime() + MAX_PAGE_SPAN_MS).toISOString()}#\uffff`,
      ':to': to.toISOString(),
      ':now': epochSeconds(ctx.clock.now()),
    },
  });
}

function byTime<S extends { ts: string }>(byTs: Map<string, S>): S[] {
  return [...byTs.values()].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}
