/**
 * Every node's sample window at once, from the window digests (windowDigest.ts): one paginated
 * Query per (minute, shard), however many nodes there are. It returns what nodeWindow would return
 * for each node (the reference: readFleet's full read), sample for sample: the same `[from, to]`
 * bounds on the timestamp strings, expired pages left out, and a timestamp stored twice taken from
 * the later page.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import {
  type SampleSeries,
  SERIES_CPU,
  SERIES_LOAD5,
  SERIES_MS,
  SERIES_STEAL,
  SERIES_STRIDE,
  seriesOf,
} from '../model/sampleSeries.js';
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
  nodes: Map<string, NodeSeries>;
  stats: FleetWindowStats;
}

/**
 * A node's window as series (model/sampleSeries.ts): its own samples and those of each instance
 * reported on it (instances without samples in the window absent), stretches of one array.
 */
export interface NodeSeries {
  host: SampleSeries;
  instances: Map<string, SampleSeries>;
}

/** One owner's samples in the window as read, before de-duplication: times, pages, values. */
interface Series {
  ms: number[];
  pages: string[];
  /** steal, cpu, load5 per sample. */
  values: number[];
}

interface NodeSamples {
  host: Series | undefined;
  instances: Map<string, Series>;
}

const newSeries = (): Series => ({ ms: [], pages: [], values: [] });

/** A node's window as series, from the sample objects nodeWindow reads. */
export function nodeSeriesOf(window: NodeWindow): NodeSeries {
  const instances = new Map<string, SampleSeries>();
  for (const [uuid, samples] of window.instances) instances.set(uuid, seriesOf(samples));
  return { host: seriesOf(window.host), instances };
}

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
    // Timestamps are canonical ISO-8601 with milliseconds, so their times compare as the strings do.
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
      node = { host: undefined, instances: new Map() };
      this.nodes.set(entry.node, node);
    }
    if (this.touches(entry.host, base)) {
      node.host ??= newSeries();
      this.collect(node.host, entry.host, base, entry.page);
    }
    for (let i = 0; i < entry.instances.length; i += 2) {
      const flat = entry.instances[i + 1] as ArrayLike<number>;
      // Series only for samples inside the window: a VM seen only before it is absent, as in nodeWindow.
      if (!this.touches(flat, base)) continue;
      const uuid = entry.instances[i] as string;
      let series = node.instances.get(uuid);
      if (!series) {
        series = newSeries();
        node.instances.set(uuid, series);
      }
      this.collect(series, flat, base, entry.page);
    }
  }

  /** Whether any sample of `flat` lies in the window. */
  private touches(flat: ArrayLike<number>, base: number): boolean {
    for (let i = 0; i < flat.length; i += SAMPLE_STRIDE) {
      const ms = base + flat[i];
      if (ms >= this.lo && ms <= this.hi) return true;
    }
    return false;
  }

  /** Appends the samples of `flat` (a digest entry's, of the minute starting at `base`) inside the window. */
  private collect(into: Series, flat: ArrayLike<number>, base: number, page: string): void {
    for (let i = 0; i < flat.length; i += SAMPLE_STRIDE) {
      const ms = base + flat[i];
      if (ms < this.lo || ms > this.hi) continue;
      into.ms.push(ms);
      into.pages.push(page);
      into.values.push(flat[i + 1], flat[i + 2], flat[i + 3]);
    }
  }

  /** Every node's series, one array per node; the merge's own arrays are left to the collector. */
  windows(): { nodes: Map<string, NodeSeries>; samples: number } {
    const out = new Map<string, NodeSeries>();
    let count = 0;
    for (const [key, node] of this.nodes) {
      let room = node.host?.ms.length ?? 0;
      for (const series of node.instances.values()) room += series.ms.length;
      const data = new Float64Array(room * SERIES_STRIDE);
      let at = 0;
      const write = (series: Series | undefined): SampleSeries => {
        const start = at;
        if (series) at = writeDeduplicated(series, data, at);
        return { data, start, end: at };
      };
      const host = write(node.host);
      const instances = new Map<string, SampleSeries>();
      for (const [uuid, series] of node.instances) instances.set(uuid, write(series));
      count += at;
      out.set(key, { host, instances });
    }
    return { nodes: out, samples: count };
  }
}

/**
 * Writes the series into `data` from sample `at` on, oldest first, one sample per time: the one
 * from the greater page key, or, in one page, the later one (nodeWindow's rule). Returns the end.
 */
function writeDeduplicated(s: Series, data: Float64Array, at: number): number {
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
  let end = at;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (k + 1 < order.length && s.ms[order[k + 1]] === s.ms[i]) continue; // a later one wins
    const o = end * SERIES_STRIDE;
    data[o + SERIES_MS] = s.ms[i];
    data[o + SERIES_STEAL] = s.values[3 * i];
    data[o + SERIES_CPU] = s.values[3 * i + 1];
    data[o + SERIES_LOAD5] = s.values[3 * i + 2];
    end++;
  }
  return end;
}
