import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../lib/engine/filters/ComputeFilter.js';
import { Scheduler } from '../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../lib/engine/weighers/RAMWeigher.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

const config = makeConfig({ placid: { placement_prefilter: false } });

function hosts() {
  return [
    makeHost({ host: 'a', nodename: 'a', free_ram_mb: 1024 }),
    makeHost({ host: 'b', nodename: 'b', free_ram_mb: 8192 }),
    makeHost({ host: 'c', nodename: 'c', free_ram_mb: 4096, service: { disabled: true, up: true } }),
    makeHost({ host: 'd', nodename: 'd', free_ram_mb: 3072 }),
  ];
}

describe('Scheduler', () => {
  it('filters, weighs and picks the best host, with the rest as alternates', async () => {
    // Prepare
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    // Act
    const d = await scheduler.schedule(hosts(), makeSpec(), { explain: true });
    // Assess
    expect(d.error).toBeNull();
    expect(d.placements.map((p) => p.host.host)).toEqual(['b']);
    expect(d.placements[0].alternates.map((h) => h.host)).toEqual(['d', 'a']);
    expect(d.weighed?.map((w) => [w.host.host, w.weight])).toEqual([
      ['b', 1],
      ['d', 0.375],
      ['a', 0.125],
    ]);
    expect(d.eliminated()).toEqual([expect.objectContaining({ host: 'c', filter: 'ComputeFilter' })]);
    expect(d.filter_counts).toEqual([{ filter: 'ComputeFilter', start: 4, end: 3, instance_index: 0 }]);
  });

  it.each([
    ['the fast path', {}],
    ['the host-list path (ignore_hosts narrows)', { ignore_hosts: ['nowhere'] }],
  ])('gives every survivor its weight without explaining, on %s, as explained', async (_path, extra) => {
    // Prepare
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    const spec = makeSpec(extra);
    const explained = await scheduler.schedule(hosts(), spec, { explain: true });
    // Act
    const fast = await scheduler.schedule(hosts(), spec, { weights: true });
    // Assess
    const rows = (d: typeof fast) => d.weighed?.map((w) => [w.host.host, w.weight]);
    expect(rows(fast)).toEqual(rows(explained));
    expect(rows(fast)).toHaveLength(3);
    expect(fast.weighed?.every((w) => w.breakdown.length === 0)).toBe(true);
    expect(fast.eliminated()).toEqual([]);
  });

  it('consumes resources between the instances of a multi-create', async () => {
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    const d = await scheduler.schedule(
      hosts(),
      makeSpec({ num_instances: 3, flavor: { name: 'big', vcpus: 1, memory_mb: 6000 } }),
    );
    // b (8192) first; then b has 2192 left, d (3072) wins; then b 2192 > a 1024 > d -2928.
    expect(d.placements.map((p) => p.host.host)).toEqual(['b', 'd', 'b']);
    expect(d.placements[2].host.free_ram_mb).toBe(8192 - 12000);
  });

  it('reports NoValidHost when no host passes', async () => {
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    const all = hosts().map((h) => ({ ...h, service: { disabled: true, up: true } }));
    const d = await scheduler.schedule(all, makeSpec());
    expect(d.error?.type).toBe('NoValidHost');
    expect(d.placements).toEqual([]);
  });

  it('forced hosts skip the filters but are still weighed', async () => {
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    const d = await scheduler.schedule(hosts(), makeSpec({ force_hosts: ['C', 'a'] }));
    expect(d.placements[0].host.host).toBe('c');
  });

  it('tries the next host when a claim fails', async () => {
    const scheduler = new Scheduler(config, [ComputeFilter], [RAMWeigher]);
    const d = await scheduler.schedule(hosts(), makeSpec(), { claim: (h) => h.host !== 'b' });
    expect(d.placements[0].host.host).toBe('d');
  });
});
