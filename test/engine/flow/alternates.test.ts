import { describe, expect, it } from 'vitest';
import { NumInstancesFilter } from '../../../lib/engine/filters/NumInstancesFilter.js';
import { DiskWeigher } from '../../../lib/engine/weighers/DiskWeigher.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import { makeSpec } from '../../helpers/factories.js';
import { alternates, node, noPlacement, schedule, selected, spyFilter } from './flow.js';

const ram = (name: string, free_ram_mb: number, cell_uuid: string | null = null) =>
  node(name, { free_ram_mb, cell_uuid });

describe('alternates (Nova _get_alternate_hosts)', () => {
  it('gives max_attempts - 1 alternates in weight order', async () => {
    // Prepare
    const hosts = [ram('a', 1000), ram('b', 5000), ram('c', 3000), ram('d', 4000)];
    // Act
    const d = await schedule(hosts, makeSpec(), { weighers: [RAMWeigher] });
    // Assess
    expect(alternates(d)).toEqual([['d', 'c']]);
  });

  it.each([
    [1, []],
    [2, ['d']],
    [10, ['d', 'c', 'a']],
  ])('with max_attempts %i gives %j', async (max_attempts, expected) => {
    // Prepare
    const hosts = [ram('a', 1000), ram('b', 5000), ram('c', 3000), ram('d', 4000)];
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [RAMWeigher],
      config: noPlacement({ scheduler: { max_attempts } }),
    });
    // Assess
    expect(alternates(d)).toEqual([expected]);
  });

  it('gives none when the caller does not ask for alternates', async () => {
    // Prepare
    const hosts = [ram('a', 1000), ram('b', 5000)];
    // Act
    const d = await schedule(hosts, makeSpec(), { weighers: [RAMWeigher], options: { alternates: false } });
    // Assess
    expect(alternates(d)).toEqual([[]]);
  });

  it('takes alternates only from the selected host’s cell', async () => {
    // Prepare
    const hosts = [
      ram('a', 9000, 'cell1'),
      ram('b', 8000, 'cell2'),
      ram('c', 7000, 'cell2'),
      ram('d', 6000, 'cell1'),
    ];
    // Act
    const d = await schedule(hosts, makeSpec(), { weighers: [RAMWeigher] });
    // Assess
    expect(alternates(d)).toEqual([['d']]);
  });

  it('finds same-cell alternates ranked below many hosts of another cell', async () => {
    // Prepare: the best host is alone in cell1 until far down the ranking; a short list misses them.
    const hosts = [ram('best', 100000, 'cell1')];
    for (let i = 0; i < 30; i++) hosts.push(ram(`other${i}`, 50000 - i, 'cell2'));
    hosts.push(ram('low1', 20, 'cell1'), ram('low2', 10, 'cell1'));
    // Act
    const d = await schedule(hosts, makeSpec(), { weighers: [RAMWeigher], options: { explain: false } });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([['best'], [['low1', 'low2']]]);
  });

  it('never offers a selected host of a multi-create as an alternate', async () => {
    // Prepare
    const hosts = [ram('a', 9000), ram('b', 8000), ram('c', 2000), ram('d', 1000)];
    const spec = makeSpec({ num_instances: 2, flavor: { name: 'f', vcpus: 1, memory_mb: 1500 } });
    // Act
    const d = await schedule(hosts, spec, { weighers: [RAMWeigher] });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([
      ['a', 'b'],
      [
        ['c', 'd'],
        ['c', 'd'],
      ],
    ]);
  });

  it('re-weighs a multi-create’s survivors after the last pick', async () => {
    // Prepare: a is full after instance 0 (NumInstancesFilter), b takes instance 1. Weighed before
    // b's consumption c (0.4 + 0.1) beats d (0.1 + 0.3); after it, b's disk no longer sets the
    // maximum and d (1000/9900 + 3000/3000) beats c (4000/9900 + 1000/3000).
    const disk = (name: string, free_ram_mb: number, free_disk_mb: number, num_instances = 0) =>
      node(name, { free_ram_mb, free_disk_mb, num_instances });
    const hosts = [
      disk('a', 20000, 20000, 49),
      disk('b', 10000, 10000),
      disk('c', 4000, 1000),
      disk('d', 1000, 3000),
    ];
    const spec = makeSpec({ num_instances: 2, flavor: { name: 'f', vcpus: 1, memory_mb: 100, root_gb: 9 } });
    // Act
    const d = await schedule(hosts, spec, {
      filters: [NumInstancesFilter],
      weighers: [RAMWeigher, DiskWeigher],
    });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([
      ['a', 'b'],
      [
        ['d', 'c'],
        ['d', 'c'],
      ],
    ]);
  });

  it('runs the per-instance filters once more, for the last index, to pick a multi-create’s alternates', async () => {
    // Prepare
    const every = spyFilter('EveryFilter');
    const hosts = [ram('a', 9000), ram('b', 8000)];
    // Act
    await schedule(hosts, makeSpec({ num_instances: 2 }), { filters: [every.filter] });
    // Assess
    expect(every.calls.map((c) => c.index)).toEqual([0, 0, 1, 1, 1, 1]);
  });

  it('does not re-filter a single-instance request for its alternates', async () => {
    // Prepare
    const every = spyFilter('EveryFilter');
    // Act
    await schedule([ram('a', 9000), ram('b', 8000)], makeSpec(), { filters: [every.filter] });
    // Assess
    expect(every.calls).toHaveLength(2);
  });

  it('offers a host whose claim failed as an alternate', async () => {
    // Prepare
    const hosts = [ram('a', 9000), ram('b', 8000), ram('c', 7000)];
    // Act
    const d = await schedule(hosts, makeSpec(), {
      weighers: [RAMWeigher],
      options: { claim: (h) => h.host !== 'a' },
    });
    // Assess
    expect([selected(d), alternates(d)]).toEqual([['b'], [['a', 'c']]]);
  });
});
