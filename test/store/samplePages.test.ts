import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  HostSample,
  HypervisorReport,
  InstanceReport,
  InstanceSample,
} from '../../lib/model/reports.js';
import {
  messagePages,
  type PageLimits,
  pageContent,
  type SamplePage,
  type SamplesByOwner,
} from '../../lib/store/samplePages.js';
import { digestWrites } from '../../lib/store/windowDigest.js';
import { NOW } from './fixtures.js';

const minute = (m: number) => new Date(NOW.getTime() - 200 * 60_000 + m * 60_000).toISOString();
const hostSample = (m: number, steal = 1): HostSample => ({
  ts: minute(m),
  steal_percent: steal,
  cpu_percent: 50,
  load5: 1,
});
const vmSample = (m: number, steal = 2): InstanceSample => ({
  ts: minute(m),
  steal_percent: steal,
  load5: 1,
  cpu_percent: 30,
});
// messagePages reads only the node and the samples of a report.
const hypervisor = (host: string, samples: HostSample[]) =>
  ({ host, nodename: host, samples }) as unknown as HypervisorReport;
const instance = (uuid: string, host: string, samples: InstanceSample[]) =>
  ({ uuid, host, nodename: host, samples }) as unknown as InstanceReport;
const RETENTION = 86_400;

/** Every (owner, ts) a page holds; owner '' is the node itself. */
function held(page: SamplePage): string[] {
  const { host, instances } = pageContent(page as unknown as Record<string, unknown>);
  const out = host.map((s) => `/${s.ts}`);
  for (const [uuid, samples] of instances) out.push(...samples.map((s) => `${uuid}/${s.ts}`));
  return out;
}

describe('messagePages', () => {
  it('gives the same message the same pages, keys included', () => {
    // Prepare
    const build = () =>
      messagePages([hypervisor('a', [hostSample(1)])], [instance('v1', 'a', [vmSample(1)])], RETENTION);
    // Act
    const [first, second] = [build(), build()];
    // Assess
    expect(second).toEqual(first);
  });

  it('keys a page by its newest sample and its content, so another message cannot overwrite it', () => {
    // Prepare
    const one = messagePages([hypervisor('a', [hostSample(1), hostSample(2)])], [], RETENTION)[0].item;
    const other = messagePages([hypervisor('a', [hostSample(2, 9)])], [], RETENTION)[0].item;
    // Assess
    expect(one.ts.startsWith(`${minute(2)}#`)).toBe(true);
    expect(other.ts.startsWith(`${minute(2)}#`)).toBe(true);
    expect(other.ts).not.toBe(one.ts);
  });

  it('expires a page its retention after its newest sample', () => {
    // Act
    const [{ item }] = messagePages([hypervisor('a', [hostSample(1), hostSample(7)])], [], RETENTION);
    // Assess
    expect(item.expires_at).toBe(Date.parse(minute(7)) / 1000 + RETENTION);
    expect(item.first_ts).toBe(minute(1));
  });

  it('writes no page for reports without samples', () => {
    // Act
    const pages = messagePages([hypervisor('a', [])], [instance('v1', 'a', [])], RETENTION);
    // Assess
    expect(pages).toEqual([]);
  });

  it('splits samples into pages that hold each exactly once, within span and size (property)', () => {
    const limits: PageLimits = { maxSpanMs: 30 * 60_000, maxBytes: 600 };
    const report = fc.record({
      node: fc.constantFrom('n1', 'n2'),
      owner: fc.constantFrom('', 'v1', 'v2', 'v3'),
      minutes: fc.uniqueArray(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 20 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(report, { selector: (r) => `${r.node}/${r.owner}`, maxLength: 6 }),
        (reports) => {
          // Prepare: a VM belongs to one node, as in a real message
          const hyps = reports
            .filter((r) => r.owner === '')
            .map((r) =>
              hypervisor(
                r.node,
                r.minutes.map((m) => hostSample(m)),
              ),
            );
          const vms = reports
            .filter((r) => r.owner !== '')
            .map((r) =>
              instance(
                `${r.node}-${r.owner}`,
                r.node,
                r.minutes.map((m) => vmSample(m)),
              ),
            );
          // Act
          const pages = messagePages(hyps, vms, RETENTION, limits);
          // Assess
          const expected = reports.flatMap((r) =>
            r.minutes.map((m) => `${r.node}|${r.owner === '' ? '' : `${r.node}-${r.owner}`}/${minute(m)}`),
          );
          const got = pages.flatMap(({ item }) => held(item).map((k) => `${item.entity.split('/')[1]}|${k}`));
          expect(got.sort()).toEqual(expected.sort());
          for (const { item, samples } of pages) {
            const ts = held(item)
              .map((k) => k.slice(k.indexOf('/') + 1))
              .sort();
            expect(samples).toBe(ts.length);
            expect(item.first_ts).toBe(ts[0]);
            expect(item.ts.split('#')[0]).toBe(ts.at(-1));
            expect(Date.parse(ts.at(-1)!) - Date.parse(ts[0])).toBeLessThanOrEqual(limits.maxSpanMs);
            const bytes =
              (item.host_samples?.length ?? 0) + Object.values(item.vm_samples ?? {}).join('').length;
            if (samples > 1) expect(bytes).toBeLessThanOrEqual(limits.maxBytes);
          }
        },
      ),
    );
  });
});

describe('messagePages and window digests', () => {
  // Reports as parsing leaves them: any order, an owner reported twice, samples out of order,
  // -0 (which a page's JSON stores as 0), limits that force splits sometimes.
  const value = fc.oneof(fc.constant(-0), fc.double({ min: 0, max: 100, noNaN: true }));
  const sample = fc.record({ m: fc.integer({ min: 0, max: 90 }), steal: value, cpu: value, load: value });
  const report = fc.record({
    node: fc.constantFrom('n1', 'n2', 'n/3'),
    owner: fc.constantFrom('', 'v1', 'v2', '17'),
    samples: fc.array(sample, { maxLength: 8 }),
  });
  const limits = fc.record({
    maxSpanMs: fc.constantFrom(30 * 60_000, 60 * 60_000, 120 * 60_000),
    maxBytes: fc.constantFrom(300, 2_000, 128 * 1024),
  });
  type Drawn = { m: number; steal: number; cpu: number; load: number };
  const toReports = (reports: { node: string; owner: string; samples: Drawn[] }[]) => {
    const asSample = (s: Drawn) => ({
      ts: minute(s.m),
      steal_percent: s.steal,
      cpu_percent: s.cpu,
      load5: s.load,
    });
    return {
      hyps: reports.filter((r) => r.owner === '').map((r) => hypervisor(r.node, r.samples.map(asSample))),
      vms: reports
        .filter((r) => r.owner !== '')
        .map((r) => instance(`${r.node}-${r.owner}`, r.node, r.samples.map(asSample))),
    };
  };

  /** The samples a page read back holds, by owner ('' for the node), parsed from its JSON. */
  const storedSamplesByOwner = (page: SamplePage): SamplesByOwner => {
    const { host, instances } = pageContent(page as unknown as Record<string, unknown>);
    return new Map([...(page.host_samples !== undefined ? [['', host] as const] : []), ...instances]);
  };

  it('gives window digests equal to those of the same pages read back from the store (property)', () => {
    fc.assert(
      fc.property(fc.array(report, { maxLength: 8 }), limits, (reports, lim) => {
        // Prepare
        const { hyps, vms } = toReports(reports);
        const pages = messagePages(hyps, vms, RETENTION, lim);
        const readBack = (JSON.parse(JSON.stringify(pages.map((p) => p.item))) as SamplePage[]).map(
          (item) => ({ item, byOwner: storedSamplesByOwner(item) }),
        );
        // Act
        const digests = digestWrites(pages);
        // Assess
        expect(digests).toEqual(digestWrites(readBack));
      }),
    );
  });
});
