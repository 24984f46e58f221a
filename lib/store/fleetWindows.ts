/**
 * Every node's sample window at once, from the window digests (windowDigest.ts): one paginated
 * Query per (minute, shard), however many nodes there are. It returns what nodeWindow would return
 * for each node (the reference: readFleet's full read), sample for sample: the same `[from, to]`
 * bounds on the timestamp strings, expired pages left out, and a timestamp stored twice taken from
 * the later page.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { HostSample, InstanceSample } from '../model/reports.js';
import { mapLimit } from './concurrency.js';
import { epochSeconds, type StoreContext } from './context.js';
import type { NodeWindow } from './samples.js';
import {
  type DigestEntry,
  digestEntries,
  minuteStart,
  minutesBetween,
  SAMPLE_STRIDE,
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

/** One owner's samples in the window as read, before de-duplication: times, pages, values. */
interface Series {
  ms: number[];
  pages: string[];
  /** steal, cpu, load5 per sample. */
  values: number[];
}

interface NodeSamples {
  host: Series;
  instances: Map<string, Series>;
}

const newSeries = (): Series => ({ ms: [], pages: [], values: [] });

/** The samples with `from <= ts <= to` of every node, from the digests of the minutes the window touches. */
export async function fleetWindows(ctx: StoreContext, from: Date, to: Date): Promise<FleetWindows> {
  const partitions = minutesBetween(from, to).flatMap((minute) =>
    Array.from({ length: WINDOW_SHARDS }, (_, shard) => ({ minute, shard })),
  );
  const merge = new WindowMerge(from, to, epochSeconds(ctx.clock.now()));
  let queries = 0;
  const read = await mapLimit(partitions, ctx.concurrency, async ({ minute, shard }) => {
    const items: Record<string, unknown>[] = [];
    const input = {
      TableName: ctx.tables.samples,
      KeyConditionExpression: '#entity = :entity',
      ExpressionAttributeNames: { '#entity': 'entity' },
      ExpressionAttributeValues: { ':entity': windowEntityKey(shard, minute) },
    };
    for await (const page of paginateQuery({ client: ctx.doc }, input)) {
      queries++;
      items.push(...(page.Items ?? []));
    }
    return items;
  });
  // Merged in minute order, so most series come out in time order without sorting.
  let items = 0;
  read.forEach((list, i) => {
    items += list.length;
    for (const item of list) merge.add(item, partitions[i].minute);
  });
  const { nodes, samples } = merge.windows();
  return { nodes, stats: { queries, items, samples } };
}

/** Digest items in, node windows out (pure: fleetWindows does the reading). */
export class WindowMerge {
  private readonly nodes = new Map<string, NodeSamples>();
  private readonly lo: number;
  private readonly hi: number;

  /** `nowSeconds`: entries of pages expired by then are left out. */
  constructor(
    from: Date,
    to: Date,
    private readonly nowSeconds: number,
  ) {
    // Timestamps are canonical ISO-8601, so comparing their times is comparing the strings.
    this.lo = from.getTime();
    this.hi = to.getTime();
  }

  add(item: Record<string, unknown>, minute: string): void {
    const base = minuteStart(minute);
    for (const entry of digestEntries(item)) this.addEntry(entry, base);
  }

  private addEntry(entry: DigestEntry, base: number): void {
    if (entry.expires <= this.nowSeconds) return;
    let node = this.nodes.get(entry.node);
    if (!node) {
      node = { host: newSeries(), instances: new Map() };
      this.nodes.set(entry.node, node);
    }
    collect(node.host, entry.host, base, this.lo, this.hi, entry.page);
    for (let i = 0; i < entry.instances.length; i += 2) {
      const uuid = entry.instances[i] as string;
      let series = node.instances.get(uuid);
      if (!series) {
        series = newSeries();
        node.instances.set(uuid, series);
      }
      collect(series, entry.instances[i + 1] as ArrayLike<number>, base, this.lo, this.hi, entry.page);
    }
  }

  windows(): { nodes: Map<string, NodeWindow>; samples: number } {
    // Agents stamp a node's samples alike: one string per distinct time, not one per sample.
    const strings = new Map<number, string>();
    const iso = (ms: number) => {
      let text = strings.get(ms);
      if (text === undefined) {
        text = new Date(ms).toISOString();
        strings.set(ms, text);
      }
      return text;
    };
    const out = new Map<string, NodeWindow>();
    let count = 0;
    for (const [key, node] of this.nodes) {
      const instances = new Map<string, InstanceSample[]>();
      for (const [uuid, series] of node.instances) {
        const samples = samplesOf(series, iso);
        if (samples.length > 0) instances.set(uuid, samples);
        count += samples.length;
      }
      const host: HostSample[] = samplesOf(node.host, iso);
      count += host.length;
      out.set(key, { host, instances });
    }
    return { nodes: out, samples: count };
  }
}

/** Appends the samples of `flat` (a digest entry's, of the minute starting at `base`) inside [lo, hi]. */
function collect(
  into: Series,
  flat: ArrayLike<number>,
  base: number,
  lo: number,
  hi: number,
  page: string,
): void {
  for (let i = 0; i < flat.length; i += SAMPLE_STRIDE) {
    const ms = base + flat[i];
    if (ms < lo || ms > hi) continue;
    into.ms.push(ms);
    into.pages.push(page);
    into.values.push(flat[i + 1], flat[i + 2], flat[i + 3]);
  }
}

/**
 * The series oldest first, one sample per timestamp: the one from the greater page key, or, in one
 * page, the later one (nodeWindow's rule).
 */
function samplesOf(s: Series, iso: (ms: number) => string): InstanceSample[] {
  let ordered = true;
  for (let i = 1; i < s.ms.length && ordered; i++) ordered = s.ms[i - 1] < s.ms[i];
  const order = s.ms.map((_, i) => i);
  // Read in minute order, a series is usually in order already; else sort, stable: equal times
  // and pages keep the order they were read in.
  if (!ordered) {
    order.sort(
      (a, b) => s.ms[a] - s.ms[b] || (s.pages[a] < s.pages[b] ? -1 : s.pages[a] > s.pages[b] ? 1 : 0),
    );
  }
  const out: InstanceSample[] = [];
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k + 1 < order.length && s.ms[order[k + 1]] === s.ms[i]) continue; // a later one wins
    out.push({
      ts: iso(s.ms[i]),
      steal_percent: s.values[3 * i],
      cpu_percent: s.values[3 * i + 1],
      load5: s.values[3 * i + 2],
    });
  }
  return out;
}
