import { describe, expect, it } from 'vitest';
import { AggregateRamFilter } from '../../../lib/engine/filters/AggregateRamFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const ratios = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { ram_allocation_ratio: v } }));
const ram = (memory_mb: number) => makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb } });
/** 1000 MB, all in use: a request of m MB fits exactly when the ratio is at least 1 + m / 1000. */
const busy = (ratio: number | undefined, aggregates: Aggregates, name = 'h0') =>
  host({ host: name, total_usable_ram_mb: 1000, free_ram_mb: 0, ram_allocation_ratio: ratio, aggregates });

describe('AggregateRamFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(AggregateRamFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['uses the host ratio without aggregates (room 500)', 1.5, [], 500, true],
    ['uses the host ratio without aggregates (501 is too much)', 1.5, [], 501, false],
    [
      'uses the host ratio when no aggregate sets the key',
      1.5,
      [{ name: 'a', metadata: { ssd: '1' } }],
      501,
      false,
    ],
    ['lets an aggregate raise the ratio above the host', 1.5, ratios('2.0'), 1000, true],
    ['lets an aggregate lower the ratio below the host', 3, ratios('1.2'), 201, false],
    ['takes the smallest aggregate ratio (room 500)', 3, ratios('3', '1.5'), 500, true],
    ['takes the smallest aggregate ratio (501 is too much)', 3, ratios('3', '1.5'), 501, false],
    ['falls back to the host ratio when one value is not a number', 1.5, ratios('3', 'lots'), 501, false],
    ['reads values as Python float() does', 1, ratios(' 2e0 '), 1000, true],
    [
      'falls back to initial_ram_allocation_ratio (1.0) when nothing else applies',
      undefined,
      ratios('x'),
      1,
      false,
    ],
  ])('%s', (_case, hostRatio, aggregates, memoryMb, expected) => {
    expect(
      passes(AggregateRamFilter, busy(hostRatio, aggregates as Aggregates), { spec: ram(memoryMb) }),
    ).toBe(expected);
  });

  it('falls back to [DEFAULT] ram_allocation_ratio for a host that reports none', () => {
    const config = makeConfig({ DEFAULT: { ram_allocation_ratio: 2 } });
    expect(passes(AggregateRamFilter, busy(undefined, ratios('bad')), { spec: ram(1000), config })).toBe(
      true,
    );
    expect(passes(AggregateRamFilter, busy(1, ratios('bad')), { spec: ram(1000), config })).toBe(false);
  });

  it('falls back per host for hosts sharing aggregates', async () => {
    // Prepare: both hosts share one aggregate whose value is unusable, so each keeps its own ratio.
    const shared = ratios('bad');
    const hosts = [busy(2, shared, 'roomy'), busy(1, shared, 'tight'), busy(1, ratios('2'), 'raised')];
    // Act
    const left = await survivors(AggregateRamFilter, hosts, { spec: ram(1000) });
    // Assess
    expect(left).toEqual(['roomy', 'raised']);
  });

  it('does not write limits onto the shared host state', () => {
    const h = busy(1, ratios('2'));
    expect(passes(AggregateRamFilter, h, { spec: ram(10) })).toBe(true);
    expect(h.limits).toEqual({});
  });

  it('passes every host on a rebuild', async () => {
    const spec = rebuildSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 900 } });
    expect(await survivors(AggregateRamFilter, [busy(1, ratios('1'))], { spec })).toEqual(['h0']);
  });

  it.each([
    [
      'an aggregate ratio',
      busy(3, ratios('1.5', '2')),
      "ram_allocation_ratio 1.5 (the smallest aggregate metadata ram_allocation_ratio among '1.5', '2') = 1500 MB",
    ],
    [
      'a host ratio standing in for an unparsable value',
      busy(1.25, ratios('high')),
      "ram_allocation_ratio 1.25 (reported by the host, because aggregate metadata ram_allocation_ratio='high' is not a number) = 1250 MB",
    ],
  ])('explains %s', (_case, h, expected) => {
    const text = explanation(AggregateRamFilter, h, { spec: ram(900) });
    expect(text).toContain(expected);
    expect(text).toContain('the flavor needs 900 MB');
  });
});
