/**
 * Every node's sample window at once, from the window digests (windowDigest.ts): one paginated
 * Query per (minute, shard), however many nodes there are. It returns what nodeWindow would return
 * for each node (the reference: readFleet's full read), sample for sample: the same `[from, to]`
 * bounds on the timestamp strings, expired pages left out, and a timestamp stored twice taken from
 * the later page.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HostSample, InstanceSample } from '../model/reports.js';
import { mapLimit } from './concurrency.js';
import { epochSeconds, type StoreContext } from './context.js';
import { allItems } from './paginate.js';
import type { NodeWindow } from './samples.js';
import {
  type DigestEntry,
  digestEntries,
  minutesBetween,
  WINDOW_SHARDS,
  windowEntityKey,
} from './windowDigest.js';

/** What one read cost, for logs and benchmarks. */
export interface FleetWindowStats {
  queries: number;
  items: number;
  samples: number;
}

export interface FleetWindows {
  /** By nodeEntityKey; a node without samples in the window is absent. */
  nodes: Map<string, NodeWindow>;
  stats: FleetWindowStats;
}

interface Kept<S> {
  page: string;
  sample: S;
}

interface NodeSamples {
  host: Map<string, Kept<HostSample>>;
  instances: Map<string, Map<string, Kept<InstanceSample>>>;
}

/** The samples with `from <= ts <= to` of every node, from the digests of the minutes the window touches. */
export async function fleetWindows(ctx: StoreContext, from: Date, to: Date): Promise<FleetWindows> {
  const lo = from.toISOString();
  const hi = to.toISOString();
  const now = epochSeconds(ctx.clock().getTime());
  const partitions = minutesBetween(from, to).flatMap((minute) =>
    Array.from({ length: WINDOW_SHARDS }, (_, shard) => ({ minute, shard })),
  );
  const stats: FleetWindowStats = { queries: 0, items: 0, samples: 0 };
  const nodes = new Map<string, NodeSamples>();
  const add = (entry: DigestEntry) => {
    if (entry.expires <= now) return;
    let node = nodes.get(entry.node);
    if (!node) {
      node = { host: new Map(), instances: new Map() };
      nodes.set(entry.node, node);
    }
    for (const s of entry.host) if (s.ts >= lo && s.ts <= hi) keep(node.host, s, entry.page);
    for (const [uuid, samples] of entry.instances) {
      let own = node.instances.get(uuid);
      for (const s of samples) {
        if (!(s.ts >= lo && s.ts <= hi)) continue;
        if (!own) {
          own = new Map();
          node.instances.set(uuid, own);
        }
        keep(own, s, entry.page);
      }
    }
  };
  await mapLimit(partitions, ctx.concurrency, async ({ minute, shard }) => {
    const items = await allItems((startKey) => {
      stats.queries++;
      return ctx.doc.send(
        new QueryCommand({
          TableName: ctx.tables.samples,
          KeyConditionExpression: '#entity = :entity',
          ExpressionAttributeNames: { '#entity': 'entity' },
          ExpressionAttributeValues: { ':entity': windowEntityKey(shard, minute) },
          ExclusiveStartKey: startKey,
        }),
      );
    });
    stats.items += items.length;
    for (const item of items) for (const entry of digestEntries(item, minute)) add(entry);
  });
  const out = new Map<string, NodeWindow>();
  for (const [key, node] of nodes) {
    const instances = new Map<string, InstanceSample[]>();
    for (const [uuid, byTs] of node.instances) instances.set(uuid, byTime(byTs));
    const window = { host: byTime(node.host), instances };
    stats.samples += window.host.length;
    for (const list of instances.values()) stats.samples += list.length;
    out.set(key, window);
  }
  return { nodes: out, stats };
}

/** Keeps `sample` unless a page with a greater key holds the same timestamp (in one page, the later one). */
function keep<S extends { ts: string }>(byTs: Map<string, Kept<S>>, sample: S, page: string): void {
  const held = byTs.get(sample.ts);
  if (!held || held.page <= page) byTs.set(sample.ts, { page, sample });
}

function byTime<S extends { ts: string }>(byTs: Map<string, Kept<S>>): S[] {
  const list = [...byTs.values()].map((k) => k.sample);
  return list.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}
