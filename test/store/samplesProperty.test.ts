/** Sample pages read back exactly what a naive store, one item per sample, would (property, on dynalite). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  HostSample,
  HypervisorReport,
  InstanceReport,
  InstanceSample,
} from '../../lib/model/reports.js';
import { NOW, useStore } from './fixtures.js';

const h = useStore();

const NODES = [
  { host: 'pa', nodename: 'pa' },
  { host: 'pb', nodename: 'pb-node' },
];
const minute = (m: number) => new Date(NOW.getTime() - 200 * 60_000 + m * 60_000).toISOString();
// A sample's values follow from who took it and when, so an agent resending it sends the same values.
const steal = (node: number, owner: number, m: number) => (m * 7 + owner * 13 + node) % 100;

/** One report in a message: a node's own samples (owner -1) or one of its VMs' (owner 0..2). */
const reportArb = fc.record({
  node: fc.integer({ min: 0, max: 1 }),
  owner: fc.integer({ min: -1, max: 2 }),
  minutes: fc.uniqueArray(fc.integer({ min: 0, max: 180 }), { minLength: 1, maxLength: 12 }),
});
const messageArb = fc.uniqueArray(reportArb, {
  selector: (r) => `${r.node}/${r.owner}`,
  minLength: 1,
  maxLength: 5,
});
const windowArb = fc.tuple(fc.integer({ min: -10, max: 190 }), fc.integer({ min: -10, max: 190 }));

type Report = { node: number; owner: number; minutes: number[] };
interface Naive {
  host: Map<string, HostSample>;
  vms: Map<string, Map<string, InstanceSample>>;
}

let runs = 0;

describe('nodeWindow against a per-sample store', () => {
  it('returns the same samples for random reports and windows (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(messageArb, { minLength: 1, maxLength: 4 }),
        windowArb,
        async (messages, [a, b]) => {
          // Prepare: fresh node names each run, so runs do not see each other's pages
          const run = `r${++runs}`;
          const node = (i: number) => ({ host: `${run}-${NODES[i].host}`, nodename: NODES[i].nodename });
          const uuid = (n: number, owner: number) => `${run}-${n}-vm${owner}`;
          const naive: Naive[] = NODES.map(() => ({ host: new Map(), vms: new Map() }));
          for (const reports of messages) {
            const { hypervisors, instances } = toReports(reports, node, uuid);
            await h.store.putSamples(hypervisors, instances);
            for (const r of hypervisors) for (const s of r.samples) naive[index(r, node)].host.set(s.ts, s);
            for (const r of instances) {
              const byTs = naive[index(r, node)].vms.get(r.uuid) ?? new Map<string, InstanceSample>();
              for (const s of r.samples) byTs.set(s.ts, s);
              naive[index(r, node)].vms.set(r.uuid, byTs);
            }
          }
          const [from, to] = [new Date(minute(Math.min(a, b))), new Date(minute(Math.max(a, b)))];
          for (let n = 0; n < NODES.length; n++) {
            // Act
            const got = await h.store.nodeWindow(node(n).host, node(n).nodename, from, to);
            // Assess
            const inWindow = <S extends { ts: string }>(byTs: Map<string, S>) =>
              [...byTs.values()]
                .filter((s) => s.ts >= from.toISOString() && s.ts <= to.toISOString())
                .sort((x, y) => (x.ts < y.ts ? -1 : 1));
            expect(got.host).toEqual(inWindow(naive[n].host));
            const expected = new Map(
              [...naive[n].vms]
                .map(([id, byTs]) => [id, inWindow(byTs)] as const)
                .filter(([, s]) => s.length > 0),
            );
            expect(got.instances).toEqual(expected);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});

function toReports(
  reports: Report[],
  node: (i: number) => { host: string; nodename: string },
  uuid: (n: number, owner: number) => string,
): { hypervisors: HypervisorReport[]; instances: InstanceReport[] } {
  const hypervisors: HypervisorReport[] = [];
  const instances: InstanceReport[] = [];
  for (const r of reports) {
    const at = node(r.node);
    if (r.owner < 0) {
      const samples = r.minutes.map((m) => ({
        ts: minute(m),
        steal_percent: steal(r.node, r.owner, m),
        cpu_percent: 40,
        load5: 1,
      }));
      // putSamples reads only the node and the samples of a report.
      hypervisors.push({ ...at, samples } as unknown as HypervisorReport);
    } else {
      const samples = r.minutes.map((m) => ({
        ts: minute(m),
        steal_percent: steal(r.node, r.owner, m),
        load5: 1,
        cpu_percent: 20,
      }));
      instances.push({ ...at, uuid: uuid(r.node, r.owner), samples } as unknown as InstanceReport);
    }
  }
  return { hypervisors, instances };
}

function index(report: { host: string }, node: (i: number) => { host: string }): number {
  return NODES.findIndex((_, i) => node(i).host === report.host);
}
