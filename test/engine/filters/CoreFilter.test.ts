import { describe, expect, it } from 'vitest';
import { CoreFilter } from '../../../lib/engine/filters/CoreFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { agg, explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

const cpus = (vcpus: number) => makeSpec({ flavor: { name: 'f', vcpus, memory_mb: 512 } });
const node = (total: number, used: number, ratio?: number, more: Partial<HostStateInput> = {}) =>
  host({ vcpus_total: total, vcpus_used: used, cpu_allocation_ratio: ratio, ...more });

describe('CoreFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(CoreFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['passes when free vCPUs equal the flavor', node(8, 6, 1), 2, true],
    ['fails when one vCPU short', node(8, 7, 1), 2, false],
    ['overcommits by the host ratio', node(4, 14, 4), 2, true],
    ['stops at the overcommitted limit', node(4, 15, 4), 2, false],
    ['never lets one instance exceed the physical vCPUs, whatever the ratio', node(4, 0, 16), 5, false],
    ['passes a host reporting no vCPUs (Nova assumes broken CPU collection)', node(0, 0, 1), 64, true],
    ['uses the default initial ratio of 4.0 when the host reports none', node(2, 6), 2, true],
  ])('%s', (_case, h, vcpus, expected) => {
    expect(passes(CoreFilter, h, { spec: cpus(vcpus) })).toBe(expected);
  });

  it("keeps the host's ratio over [DEFAULT] cpu_allocation_ratio, which only fills in a missing one", () => {
    const config = makeConfig({ DEFAULT: { cpu_allocation_ratio: 1 } });
    expect(passes(CoreFilter, node(4, 3, 16), { spec: cpus(2), config })).toBe(true);
    expect(passes(CoreFilter, node(4, 3), { spec: cpus(2), config })).toBe(false);
  });

  it('ignores aggregate cpu_allocation_ratio (only AggregateCoreFilter reads it)', () => {
    const h = node(4, 4, 1, { aggregates: agg({ cpu_allocation_ratio: '8' }) });
    expect(passes(CoreFilter, h, { spec: cpus(1) })).toBe(false);
  });

  it('does not write limits onto the shared host state', () => {
    const h = node(4, 0, 2);
    expect(passes(CoreFilter, h, { spec: cpus(1) })).toBe(true);
    expect(h.limits).toEqual({});
  });

  it('still filters the second instance of a multi-create', async () => {
    const hosts = [node(4, 0, 1), node(4, 4, 1, { host: 'full' })];
    expect(await survivors(CoreFilter, hosts, { spec: cpus(1), index: 1 })).toEqual(['h0']);
  });

  it('passes every host on a rebuild', async () => {
    expect(await survivors(CoreFilter, [node(4, 4, 1)], { spec: rebuildSpec() })).toEqual(['h0']);
  });

  it.each([
    [
      'the overcommitted room left',
      node(4, 15, 4),
      2,
      'host has 1 vCPUs left: 4 × cpu_allocation_ratio 4 (reported by the host) = 16, minus 15 in use; the flavor needs 2',
    ],
    [
      'a flavor larger than the host',
      node(4, 0, 16),
      8,
      'the flavor needs 8 vCPUs but the host has only 4 in total (overcommit never lets one instance exceed the physical count)',
    ],
  ])('explains %s', (_case, h, vcpus, expected) => {
    expect(explanation(CoreFilter, h, { spec: cpus(vcpus) })).toBe(expected);
  });
});
