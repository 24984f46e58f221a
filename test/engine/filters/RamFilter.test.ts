import { describe, expect, it } from 'vitest';
import { RamFilter } from '../../../lib/engine/filters/RamFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { agg, explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

const ram = (memory_mb: number) => makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb } });
const node = (total: number, free: number, ratio?: number, more: Partial<HostStateInput> = {}) =>
  host({ total_usable_ram_mb: total, free_ram_mb: free, ram_allocation_ratio: ratio, ...more });

describe('RamFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(RamFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['passes when free RAM equals the flavor', node(2048, 1024, 1), 1024, true],
    ['fails when free RAM is one MB short', node(2048, 1023, 1), 1024, false],
    ['overcommits by the host ratio', node(1024, 0, 1.5), 512, true],
    ['stops at the overcommitted limit', node(1024, 0, 1.5), 513, false],
    ['never lets one instance exceed physical RAM, whatever the ratio', node(1024, 1024, 16), 1025, false],
    ['copes with negative free RAM', node(2048, -512, 2), 1536, true],
    ['fails when negative free RAM leaves too little', node(2048, -512, 2), 1537, false],
    ['fails a host that reports no RAM', node(0, 0, 1), 1, false],
  ])('%s', (_case, h, memoryMb, expected) => {
    expect(passes(RamFilter, h, { spec: ram(memoryMb) })).toBe(expected);
  });

  // A host with all of its 1024 MB in use: only a ratio above 1 leaves room for 1024 MB more.
  it.each([
    [
      "the host's ratio wins over a higher [DEFAULT] ram_allocation_ratio",
      { ram_allocation_ratio: 2 },
      1,
      false,
    ],
    [
      "the host's ratio wins over a lower [DEFAULT] ram_allocation_ratio",
      { ram_allocation_ratio: 1 },
      2,
      true,
    ],
    [
      '[DEFAULT] ram_allocation_ratio applies when the host reports none',
      { ram_allocation_ratio: 2, initial_ram_allocation_ratio: 1 },
      undefined,
      true,
    ],
    ['the host ratio applies when [DEFAULT] sets none', {}, 2, true],
    [
      'initial_ram_allocation_ratio applies when the host reports none',
      { initial_ram_allocation_ratio: 2 },
      undefined,
      true,
    ],
    ['initial_ram_allocation_ratio defaults to 1.0', {}, undefined, false],
  ])('takes its ratio as lib/engine/ratios does: %s', (_case, defaults, hostRatio, expected) => {
    const config = makeConfig({ DEFAULT: defaults });
    expect(passes(RamFilter, node(1024, 0, hostRatio), { spec: ram(1024), config })).toBe(expected);
  });

  it('ignores aggregate ram_allocation_ratio (only AggregateRamFilter reads it)', () => {
    const h = node(1024, 1024, 1, { aggregates: agg({ ram_allocation_ratio: '4.0' }) });
    expect(passes(RamFilter, h, { spec: ram(1024) })).toBe(true);
  });

  it('does not write limits onto the shared host state', () => {
    // Prepare
    const h = node(1024, 1024, 1.5);
    // Act
    const ok = passes(RamFilter, h, { spec: ram(512) });
    // Assess
    expect(ok).toBe(true);
    expect(h.limits).toEqual({});
  });

  it('still filters the second instance of a multi-create', async () => {
    const hosts = [node(1024, 1024, 1), node(1024, 0, 1, { host: 'full' })];
    expect(await survivors(RamFilter, hosts, { spec: ram(512), index: 1 })).toEqual(['h0']);
  });

  it('passes every host on a rebuild', async () => {
    const spec = rebuildSpec({ flavor: { name: 'big', vcpus: 1, memory_mb: 4096 } });
    expect(await survivors(RamFilter, [node(1024, 0, 1)], { spec })).toEqual(['h0']);
  });

  it.each([
    [
      'the overcommitted room left',
      node(2048, 512, 1.5),
      2048,
      'host has 1536 MB of RAM left: 2048 MB × ram_allocation_ratio 1.5 (reported by the host) = 3072 MB, ' +
        'minus 1536 MB in use; the flavor needs 2048 MB',
    ],
    [
      'a flavor larger than the host',
      node(1024, 1024, 4),
      2048,
      'the flavor needs 2048 MB of RAM but the host has only 1024 MB in total (overcommit never lets one instance exceed physical RAM)',
    ],
    [
      'where a defaulted ratio came from',
      node(1000, 0),
      200,
      'host has 0 MB of RAM left: 1000 MB × ram_allocation_ratio 1 ([DEFAULT] initial_ram_allocation_ratio, as the host reports none) = 1000 MB, minus 1000 MB in use; the flavor needs 200 MB',
    ],
  ])('explains %s', (_case, h, memoryMb, expected) => {
    expect(explanation(RamFilter, h, { spec: ram(memoryMb) })).toBe(expected);
  });
});
