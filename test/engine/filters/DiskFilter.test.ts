import { describe, expect, it } from 'vitest';
import { DiskFilter } from '../../../lib/engine/filters/DiskFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { agg, explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

const disk = (root_gb: number, ephemeral_gb = 0, swap = 0) =>
  makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, root_gb, ephemeral_gb, swap } });
const node = (totalGb: number, freeMb: number, ratio?: number, more: Partial<HostStateInput> = {}) =>
  host({ total_usable_disk_gb: totalGb, free_disk_mb: freeMb, disk_allocation_ratio: ratio, ...more });

describe('DiskFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(DiskFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['passes when free disk equals root disk', node(20, 10240, 1), disk(10), true],
    ['adds ephemeral disk to the request', node(20, 10240, 1), disk(5, 6), false],
    ['adds swap (in MB) to the request', node(20, 10240, 1), disk(10, 0, 1), false],
    ['overcommits by the host ratio', node(10, 0, 2), disk(10), true],
    ['stops at the overcommitted limit', node(10, 0, 2), disk(10, 0, 1), false],
    [
      'never lets one instance exceed the physical disk, whatever the ratio',
      node(10, 10240, 8),
      disk(11),
      false,
    ],
    ['passes a diskless flavor on an empty host', node(0, 0, 1), disk(0), true],
  ])('%s', (_case, h, spec, expected) => {
    expect(passes(DiskFilter, h, { spec })).toBe(expected);
  });

  it("keeps the host's ratio over [DEFAULT] disk_allocation_ratio, which only fills in a missing one", () => {
    const config = makeConfig({ DEFAULT: { disk_allocation_ratio: 2 } });
    expect(passes(DiskFilter, node(10, 0, 1), { spec: disk(10), config })).toBe(false);
    expect(passes(DiskFilter, node(10, 0), { spec: disk(10), config })).toBe(true);
  });

  it('ignores aggregate disk_allocation_ratio (only AggregateDiskFilter reads it)', () => {
    const h = node(10, 0, 1, { aggregates: agg({ disk_allocation_ratio: '3' }) });
    expect(passes(DiskFilter, h, { spec: disk(1) })).toBe(false);
  });

  it('does not write limits onto the shared host state', () => {
    const h = node(10, 10240, 1);
    expect(passes(DiskFilter, h, { spec: disk(1) })).toBe(true);
    expect(h.limits).toEqual({});
  });

  it('still filters the second instance of a multi-create', async () => {
    const hosts = [node(10, 10240, 1), node(10, 0, 1, { host: 'full' })];
    expect(await survivors(DiskFilter, hosts, { spec: disk(1), index: 1 })).toEqual(['h0']);
  });

  it('passes every host on a rebuild', async () => {
    const spec = rebuildSpec({ flavor: { name: 'big', vcpus: 1, memory_mb: 1, root_gb: 100 } });
    expect(await survivors(DiskFilter, [node(10, 0, 1)], { spec })).toEqual(['h0']);
  });

  it.each([
    [
      'the overcommitted room left',
      node(10, 1024, 1.5),
      disk(5, 1, 512),
      'host has 6144 MB of disk left: 10240 MB × disk_allocation_ratio 1.5 (reported by the host) = 15360 MB, ' +
        'minus 9216 MB in use; the flavor needs 6656 MB (root 5 GB + ephemeral 1 GB + swap 512 MB)',
    ],
    [
      'a flavor larger than the host',
      node(1, 1024, 10),
      disk(2),
      'the flavor needs 2048 MB (root 2 GB + ephemeral 0 GB + swap 0 MB) of disk but the host has only 1024 MB ' +
        'in total (overcommit never lets one instance exceed physical disk)',
    ],
  ])('explains %s', (_case, h, spec, expected) => {
    expect(explanation(DiskFilter, h, { spec })).toBe(expected);
  });
});
