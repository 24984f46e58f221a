import { describe, expect, it } from 'vitest';
import { AggregateDiskFilter } from '../../../lib/engine/filters/AggregateDiskFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const ratios = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { disk_allocation_ratio: v } }));
const disk = (root_gb: number, swap = 0) =>
  makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, root_gb, swap } });
/** 10 GB, all in use: 10 GB more fit from ratio 2 up. */
const full = (ratio: number | undefined, aggregates: Aggregates, name = 'h0') =>
  host({ host: name, total_usable_disk_gb: 10, free_disk_mb: 0, disk_allocation_ratio: ratio, aggregates });

describe('AggregateDiskFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(AggregateDiskFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['uses the host ratio without aggregates', 1, [], disk(10), false],
    ['lets an aggregate raise the ratio', 1, ratios('2'), disk(10), true],
    ['counts swap against the raised ratio', 1, ratios('2'), disk(10, 1), false],
    ['lets an aggregate lower the ratio', 4, ratios('1.5'), disk(10), false],
    ['takes the smallest aggregate ratio', 4, ratios('4', '2'), disk(10), true],
    ['falls back to the host ratio when one value is not a number', 2, ratios('1', 'big'), disk(10), true],
    ['uses the default initial ratio of 1.0 for a host without one', undefined, ratios('?'), disk(1), false],
  ])('%s', (_case, hostRatio, aggregates, spec, expected) => {
    expect(passes(AggregateDiskFilter, full(hostRatio, aggregates as Aggregates), { spec })).toBe(expected);
  });

  it('falls back per host for hosts sharing aggregates', async () => {
    const shared = ratios('');
    const hosts = [full(2, shared, 'roomy'), full(1, shared, 'tight')];
    expect(await survivors(AggregateDiskFilter, hosts, { spec: disk(10) })).toEqual(['roomy']);
  });

  it('passes every host on a rebuild', async () => {
    expect(await survivors(AggregateDiskFilter, [full(1, ratios('1'))], { spec: rebuildSpec() })).toEqual([
      'h0',
    ]);
  });

  it('explains with the aggregate ratio', () => {
    expect(explanation(AggregateDiskFilter, full(4, ratios('1.5')), { spec: disk(10) })).toBe(
      "host has 5120 MB of disk left: 10240 MB × disk_allocation_ratio 1.5 (the smallest aggregate metadata disk_allocation_ratio among '1.5') " +
        '= 15360 MB, minus 10240 MB in use; the flavor needs 10240 MB (root 10 GB + ephemeral 0 GB + swap 0 MB)',
    );
  });
});
