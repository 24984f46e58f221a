/** Window digests read back, node for node, exactly what nodeWindow reads from the pages (on dynalite). */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countDynamo } from '../../bench/dynamoCounter.js';
import type { HypervisorReport, InstanceReport } from '../../lib/model/reports.js';
import { EMPTY_SERIES } from '../../lib/model/sampleSeries.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import type { NodeSeries } from '../../lib/store/fleetWindows.js';
import { nodeEntityKey } from '../../lib/store/samplePages.js';
import { digestsCover, WINDOW_DIGESTS_SINCE_NAME } from '../../lib/store/windowCoverage.js';
import { samplesOf } from '../model/seriesSamples.js';
import { NOW, storeWithOwnTables, useStore } from './fixtures.js';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const h = useStore();

const NODES = [
  { host: 'wa', nodename: 'wa' },
  { host: 'wb', nodename: 'wb-node' },
  { host: 'w/c', nodename: 'w c' },
];
const START = NOW.getTime() - 12 * 60_000;
const tsAt = (second: number) => new Date(START + second * 1000).toISOString();

/** A sample: when (seconds after START, so samples straddle minutes) and its values. */
const sampleArb = fc.record({
  second: fc.integer({ min: 0, max: 12 * 60 }),
  steal: fc.double({ min: 0, max: 100, noNaN: true }),
  cpu: fc.double({ min: 0, max: 100, noNaN: true }),
  load5: fc.double({ min: 0, max: 64, noNaN: true }),
});
/** One report: a node's own samples (owner -1) or one of its 3 VMs'. */
const reportArb = fc.record({
  node: fc.integer({ min: 0, max: NODES.length - 1 }),
  owner: fc.integer({ min: -1, max: 2 }),
  samples: fc.uniqueArray(sampleArb, { selector: (s) => s.second, minLength: 1, maxLength: 8 }),
});
const messageArb = fc.uniqueArray(reportArb, { selector: (r) => `${r.node}/${r.owner}`, maxLength: 5 });
/** Messages, each written `times` times (redelivery, maybe with other values), in batches of `batch` messages. */
const deliveryArb = fc.record({
  messages: fc.array(
    fc.record({ reports: messageArb, times: fc.integer({ min: 1, max: 3 }), resentChanged: fc.boolean() }),
    {
      minLength: 1,
      maxLength: 6,
    },
  ),
  batch: fc.integer({ min: 1, max: 4 }),
  window: fc.tuple(fc.integer({ min: -60, max: 13 * 60 }), fc.integer({ min: -60, max: 13 * 60 })),
  /** The store's clock, minutes after NOW: pages whose newest sample is over 5 minutes old have expired by then. */
  clock: fc.integer({ min: 0, max: 12 }),
});

/** A node's series as the sample objects nodeWindow returns. */
const asSamples = (w: NodeSeries) => ({
  host: samplesOf(w.host),
  instances: new Map([...w.instances].map(([uuid, s]) => [uuid, samplesOf(s)])),
});

function toMessage(reports: ValueOf<typeof reportArb>[]) {
  const hypervisors: HypervisorReport[] = [];
  const instances: InstanceReport[] = [];
  for (const r of reports) {
    const node = NODES[r.node];
    const samples = r.samples.map((s) => ({
      ts: tsAt(s.second),
      steal_percent: s.steal,
      cpu_percent: s.cpu,
      load5: s.load5,
    }));
    // The page writer reads only a report's node, uuid and samples.
    if (r.owner < 0) hypervisors.push({ ...node, samples } as unknown as HypervisorReport);
    else instances.push({ ...node, uuid: `${node.host}-vm${r.owner}`, samples } as unknown as InstanceReport);
  }
  return { hypervisors, instances };
}

function changed(reports: ValueOf<typeof reportArb>[], k: number) {
  return reports.map((r) => ({
    ...r,
    samples: r.samples.map((s) => ({ ...s, steal: (s.steal + k) % 100 })),
  }));
}

async function deliver(store: FleetStore, delivery: ValueOf<typeof deliveryArb>): Promise<void> {
  // A resend may carry other values for the same timestamps (a fixed-up agent): the later page wins.
  const queue = delivery.messages.flatMap((m) =>
    Array.from({ length: m.times }, (_, k) => (k > 0 && m.resentChanged ? changed(m.reports, k) : m.reports)),
  );
  for (let i = 0; i < queue.length; i += delivery.batch) {
    const pages = queue
      .slice(i, i + delivery.batch)
      .flatMap((reports) => store.samplePages(toMessage(reports)));
    const result = await store.putSamplePages(pages);
    expect(result.failures).toEqual([]);
  }
}

describe('fleetWindows', () => {
  it('returns what nodeWindow returns for every node: duplicates, conflicting resends, minute edges, expiry (property)', async () => {
    await fc.assert(
      fc.asyncProperty(deliveryArb, async (delivery) => {
        // Prepare
        h.setNow(NOW);
        const store = await storeWithOwnTables(h, { sampleRetentionSeconds: 5 * 60 });
        await deliver(store, delivery);
        h.setNow(new Date(NOW.getTime() + delivery.clock * 60_000));
        const [a, b] = delivery.window;
        const from = new Date(START + Math.min(a, b) * 1000);
        const to = new Date(START + Math.max(a, b) * 1000);
        // Act
        const got = await store.fleetWindows(from, to);
        // Assess
        for (const node of NODES) {
          const expected = await store.nodeWindow(node.host, node.nodename, from, to);
          const window = got.nodes.get(nodeEntityKey(node));
          expect(window ? asSamples(window) : { host: [], instances: new Map() }).toEqual(expected);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('counts one Query per shard and minute of the window, however many nodes reported', async () => {
    // Prepare: 40 nodes, one sample each in the same minute
    const store = await storeWithOwnTables(h);
    const reports = Array.from({ length: 40 }, (_, n) => ({
      host: `q${n}`,
      nodename: `q${n}`,
      samples: [{ ts: tsAt(30), steal_percent: n, cpu_percent: 50, load5: 1 }],
    }));
    await store.putSamplePages(
      store.samplePages({ hypervisors: reports as unknown as HypervisorReport[], instances: [] }),
    );
    // Act: a window of two minutes
    const got = await store.fleetWindows(new Date(START), new Date(START + 119_000));
    // Assess
    expect(got.nodes.size).toBe(40);
    expect(got.stats).toMatchObject({ queries: 2 * 4, samples: 40 });
    const q7 = got.nodes.get(nodeEntityKey({ host: 'q7', nodename: 'q7' }));
    expect(samplesOf(q7?.host ?? EMPTY_SERIES).map((s) => s.steal_percent)).toEqual([7]);
  });

  it('records once, at the first write, since when digests exist', async () => {
    // Prepare
    const store = await storeWithOwnTables(h);
    const before = await store.digestsWrittenSince();
    const pages = store.samplePages({
      hypervisors: [{ ...NODES[0], samples: [{ ts: tsAt(0), steal_percent: 1, cpu_percent: 1, load5: 1 }] }],
      instances: [],
    } as unknown as Parameters<FleetStore['samplePages']>[0]);
    // Act
    await store.putSamplePages(pages);
    h.setNow(new Date(NOW.getTime() + 3_600_000));
    await storeWithOwnTables(h); // another process, other tables: leaves these alone
    await store.putSamplePages(pages);
    // Assess
    expect(before).toBeNull();
    expect(await store.digestsWrittenSince()).toBe(NOW.toISOString());
    const { Items } = await store.ctx.doc.send(new ScanCommand({ TableName: store.ctx.tables.leases }));
    expect(Items?.filter((i) => i.name === WINDOW_DIGESTS_SINCE_NAME)).toHaveLength(1);
  });

  it('reads the marker until it is recorded, then no more (it never changes)', async () => {
    // Prepare
    const own = await storeWithOwnTables(h);
    const doc = createDocumentClient({ endpoint: h.local.endpoint });
    const counter = countDynamo(doc);
    const store = new FleetStore({ ...own.ctx, doc });
    const pages = store.samplePages({
      hypervisors: [{ ...NODES[0], samples: [{ ts: tsAt(0), steal_percent: 1, cpu_percent: 1, load5: 1 }] }],
      instances: [],
    } as unknown as Parameters<FleetStore['samplePages']>[0]);
    // Act
    const before = await store.digestsWrittenSince();
    await own.putSamplePages(pages);
    counter.reset();
    const first = await store.digestsWrittenSince();
    const second = await store.digestsWrittenSince();
    // Assess
    expect(before).toBeNull();
    expect([first, second]).toEqual([NOW.toISOString(), NOW.toISOString()]);
    expect(counter.snapshot().read_requests).toBe(1);
  });
});

describe('digestsCover', () => {
  it('trusts the digests only for windows starting after they began, plus the skew and rollout margin', () => {
    const since = NOW.toISOString();
    expect(digestsCover(null, new Date(NOW.getTime() + 86_400_000))).toBe(false);
    expect(digestsCover(since, new Date(NOW.getTime() + 9 * 60_000))).toBe(false);
    expect(digestsCover(since, new Date(NOW.getTime() + 10 * 60_000))).toBe(true);
  });
});
