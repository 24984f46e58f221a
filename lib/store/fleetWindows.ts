/**
 * Every node's sample window at once, from the window digests (windowDigest.ts): one paginated
 * Query per (minute, shard), however many nodes there are. It returns what nodeWindow would return
 * for each node (the reference: readFleet's full read), sample for sample: the same `[from, to]`
 * bounds on the timestamp strings, expired pages left out, and a timestamp stored twice taken from
 * the later page.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import {
  EMPTY_SERIES,
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
  minuteStart,
  minutesBetween,
  SAMPLE_STRIDE,
  WINDOW_SHARDS,
  windowEntityKey,
} from './windowDigest.js';
import { type DigestEntry, digestEntries } from './windowDigestRead.js';

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

/** A node's owners as merge indexes: its own samples' (-1 until one is in the window) and each VM's. */
interface NodeOwners {
  host: number;
  vms: Map<string, number>;
}

/**
 * Digest items in, node windows out (pure: fleetWindows does the reading). Samples in the window
 * are logged as rows of typed arrays (owner, time, page, values) in the order read, then grouped
 * by owner with a stable counting sort: no array or object per owner or sample until the end.
 */
export class WindowMerge {
  private readonly nodes = new Map<string, NodeOwners>();
  private owners = 0;
  private readonly pages: string[] = [];
  private readonly pageIndex = new Map<string, number>();
  private readonly rows = new SampleRows();
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
      node = { host: -1, vms: new Map() };
      this.nodes.set(entry.node, node);
    }
    const page = this.pageOf(entry.page);
    const { values, counts } = entry;
    let at = entry.first;
    for (let end = at + entry.hostCount; at < end; at++) {
      const ms = base + values[at * SAMPLE_STRIDE];
      if (ms < this.lo || ms > this.hi) continue;
      if (node.host < 0) node.host = this.owners++;
      this.rows.push(node.host, ms, page, values, at * SAMPLE_STRIDE);
    }
    for (let i = 0; i < counts.length; i += 2) {
      let owner = -1;
      for (let end = at + (counts[i + 1] as number); at < end; at++) {
        const ms = base + values[at * SAMPLE_STRIDE];
        if (ms < this.lo || ms > this.hi) continue;
        // Owners only for samples inside the window: a VM seen only before it is absent, as in nodeWindow.
        if (owner < 0) owner = this.ownerOf(node, counts[i] as string);
        this.rows.push(owner, ms, page, values, at * SAMPLE_STRIDE);
      }
    }
  }

  private ownerOf(node: NodeOwners, uuid: string): number {
    let owner = node.vms.get(uuid);
    if (owner === undefined) {
      owner = this.owners++;
      node.vms.set(uuid, owner);
    }
    return owner;
  }

  private pageOf(page: string): number {
    let index = this.pageIndex.get(page);
    if (index === undefined) {
      index = this.pages.length;
      this.pages.push(page);
      this.pageIndex.set(page, index);
    }
    return index;
  }

  /** Every node's series, stretches of one array. */
  windows(): { nodes: Map<string, NodeSeries>; samples: number } {
    const { data, bounds } = this.rows.byOwner(this.owners, this.pages);
    const series = (owner: number): SampleSeries =>
      owner < 0 ? EMPTY_SERIES : { data, start: bounds[owner], end: bounds[owner + 1] };
    const out = new Map<string, NodeSeries>();
    for (const [key, node] of this.nodes) {
      const instances = new Map<string, SampleSeries>();
      for (const [uuid, owner] of node.vms) instances.set(uuid, series(owner));
      out.set(key, { host: series(node.host), instances });
    }
    return { nodes: out, samples: bounds[this.owners] ?? 0 };
  }
}

/** Samples as rows of growable typed arrays, in the order they were read. */
class SampleRows {
  private size = 0;
  private owner = new Int32Array(1024);
  private page = new Int32Array(1024);
  private ms = new Float64Array(1024);
  /** steal, cpu, load5 a row. */
  private values = new Float64Array(3 * 1024);

  push(owner: number, ms: number, page: number, from: Float64Array, at: number): void {
    if (this.size === this.owner.length) this.grow();
    const row = this.size++;
    this.owner[row] = owner;
    this.page[row] = page;
    this.ms[row] = ms;
    this.values[3 * row] = from[at + 1];
    this.values[3 * row + 1] = from[at + 2];
    this.values[3 * row + 2] = from[at + 3];
  }

  private grow(): void {
    const double = <A extends Int32Array | Float64Array>(a: A): A => {
      const bigger = new (a.constructor as new (n: number) => A)(a.length * 2);
      bigger.set(a);
      return bigger;
    };
    this.owner = double(this.owner);
    this.page = double(this.page);
    this.ms = double(this.ms);
    this.values = double(this.values);
  }

  /**
   * The rows as series, owner after owner: `bounds[o]` to `bounds[o + 1]` are owner o's samples,
   * oldest first, one per time (the one from the greater page key, or in one page the later one:
   * nodeWindow's rule).
   */
  byOwner(owners: number, pages: readonly string[]): { data: Float64Array; bounds: Int32Array } {
    // Stable counting sort by owner: each owner's rows keep the order they were read in.
    const starts = new Int32Array(owners + 1);
    for (let r = 0; r < this.size; r++) starts[this.owner[r] + 1]++;
    for (let o = 0; o < owners; o++) starts[o + 1] += starts[o];
    const order = new Int32Array(this.size);
    const next = starts.slice(0, owners);
    for (let r = 0; r < this.size; r++) order[next[this.owner[r]]++] = r;
    const data = new Float64Array(this.size * SERIES_STRIDE);
    const bounds = new Int32Array(owners + 1);
    let end = 0;
    for (let o = 0; o < owners; o++) {
      bounds[o] = end;
      end = this.write(order.subarray(starts[o], starts[o + 1]), pages, data, end);
    }
    bounds[owners] = end;
    return { data, bounds };
  }

  /** Writes one owner's rows into `data` from sample `at` on; returns where they end. */
  private write(rows: Int32Array, pages: readonly string[], data: Float64Array, at: number): number {
    const { ms, page, values } = this;
    let ordered = true;
    for (let k = 1; k < rows.length && ordered; k++) ordered = ms[rows[k - 1]] < ms[rows[k]];
    // Read in minute order, a series is usually in order already; else sort, stable: equal times
    // and pages keep the order they were read in.
    const sorted = ordered
      ? rows
      : Int32Array.from(rows).sort(
          (a, b) => ms[a] - ms[b] || compare(pages[page[a]], pages[page[b]]) || a - b,
        );
    let end = at;
    for (let k = 0; k < sorted.length; k++) {
      const r = sorted[k];
      if (k + 1 < sorted.length && ms[sorted[k + 1]] === ms[r]) continue; // a later one wins
      const o = end * SERIES_STRIDE;
      data[o + SERIES_MS] = ms[r];
      data[o + SERIES_STEAL] = values[3 * r];
      data[o + SERIES_CPU] = values[3 * r + 1];
      data[o + SERIES_LOAD5] = values[3 * r + 2];
      end++;
    }
    return end;
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
