import { describe, expect, it } from 'vitest';
import { acquireBuffers, releaseBuffers } from '../../lib/engine/candidates.js';
import { defineFilter, PASS, reject } from '../../lib/engine/filter.js';
import { Scheduler } from '../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../lib/engine/weighers/RAMWeigher.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

const TOO_SMALL = reject<string>(() => 'too small for the big flavor');

describe('decision buffers', () => {
  it('hands a released set to the next decision', () => {
    // Prepare
    const first = acquireBuffers(10);
    releaseBuffers(first);
    // Act
    const next = acquireBuffers(10);
    // Assess
    expect(next).toBe(first);
    releaseBuffers(next);
  });

  it('gives overlapping decisions sets of their own', () => {
    // Act
    const a = acquireBuffers(10);
    const b = acquireBuffers(10);
    // Assess
    expect(b.positions).not.toBe(a.positions);
    releaseBuffers(a);
    releaseBuffers(b);
  });

  it('grows a set for a larger fleet', () => {
    // Prepare
    const small = acquireBuffers(10);
    const smallSize = small.positions.length;
    releaseBuffers(small);
    // Act
    const large = acquireBuffers(smallSize + 1);
    // Assess
    expect(large.positions.length).toBeGreaterThan(smallSize);
    expect(large.weights.length).toBe(large.positions.length);
    releaseBuffers(large);
  });
});

describe('overlapping unexplained decisions', () => {
  it('each place as they would alone', async () => {
    // Prepare: a filter that yields during prepare, so the two decisions interleave.
    const yielding = defineFilter<string>({
      name: 'Yielding',
      prepare: async (spec) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return spec.flavor.name;
      },
      check: (host, _spec, flavor) => (flavor !== 'big' || host.free_ram_mb >= 8192 ? PASS : TOO_SMALL),
    });
    const config = makeConfig({ placid: { placement_prefilter: false } });
    const scheduler = new Scheduler(config, [yielding], [RAMWeigher]);
    const hosts = [2048, 16384, 4096, 9000].map((free_ram_mb, i) =>
      makeHost({ host: `h${i}`, nodename: `h${i}`, free_ram_mb, total_usable_ram_mb: 32768 }),
    );
    const big = makeSpec({ flavor: { name: 'big', vcpus: 1, memory_mb: 8192, root_gb: 0 } });
    const small = makeSpec({ flavor: { name: 'small', vcpus: 1, memory_mb: 512, root_gb: 0 } });
    const picks = async (
      runs: Promise<{ placements: { host: { host: string }; alternates: { host: string }[] }[] }>[],
    ) =>
      (await Promise.all(runs)).map((d) =>
        d.placements.map((p) => [p.host.host, p.alternates.map((h) => h.host)]),
      );
    // Act
    const together = await picks([
      scheduler.schedule(hosts, big, { explain: false }),
      scheduler.schedule(hosts, small, { explain: false }),
    ]);
    const alone = [
      ...(await picks([scheduler.schedule(hosts, big, { explain: false })])),
      ...(await picks([scheduler.schedule(hosts, small, { explain: false })])),
    ];
    // Assess
    expect(together).toEqual(alone);
    expect(together[0][0][1]).toEqual(['h3']);
  });
});
