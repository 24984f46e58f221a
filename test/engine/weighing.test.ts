import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { defineWeigher, type HostWeigher } from '../../lib/engine/weigher.js';
import { DiskWeigher } from '../../lib/engine/weighers/DiskWeigher.js';
import { NumInstancesWeigher } from '../../lib/engine/weighers/NumInstancesWeigher.js';
import { RAMWeigher } from '../../lib/engine/weighers/RAMWeigher.js';
import { rankHosts } from '../../lib/engine/weighing.js';
import type { HostStateInput } from '../../lib/model/hostSchema.js';
import { weighList } from '../helpers/engineRuns.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

const hostsWith = (inputs: Partial<HostStateInput>[]) =>
  inputs.map((input, i) => makeHost({ host: `h${i}`, nodename: `h${i}`, ...input }));

function weights(weighers: HostWeigher<unknown>[], inputs: Partial<HostStateInput>[], config = makeConfig()) {
  const hosts = hostsWith(inputs);
  return Array.from(weighList(weighers, hosts, makeSpec(), makeContext(config, hosts)));
}

const packing = makeConfig({ filter_scheduler: { num_instances_weight_multiplier: 1 } });

describe('weighing', () => {
  it.each([
    ['divides by the maximum for a minval-0 weigher', [512, 1024, 3072, 8192], [0.0625, 0.125, 0.375, 1]],
    ['gives 1.0 to equal positive values with minval 0', [2048, 2048], [1, 1]],
    ['clamps a negative raw weight to minval 0', [-4096, 1024, 2048], [0, 0.5, 1]],
    ['gives 0 when every value is clamped to 0', [-1, -5], [0, 0]],
  ])('%s', (_case, free, expected) => {
    // Act
    const w = weights(
      [RAMWeigher as HostWeigher<unknown>],
      free.map((f) => ({ free_ram_mb: f })),
    );
    // Assess
    expect(w).toEqual(expected);
  });

  it.each([
    ['normalises min-max without minval', [3, 5, 11], [0, 0.25, 1]],
    ['gives 0 to equal values without minval', [4, 4, 4], [0, 0, 0]],
  ])('%s', (_case, counts, expected) => {
    const w = weights(
      [NumInstancesWeigher as HostWeigher<unknown>],
      counts.map((n) => ({ num_instances: n })),
      packing,
    );
    expect(w).toEqual(expected);
  });

  it('gives a single host weight 0 without calling any weigher', () => {
    // Prepare
    const weigh = vi.fn(() => 42);
    const prepare = vi.fn(() => undefined);
    const spy = defineWeigher({ name: 'Spy', prepare, weigh, multiplier: () => 1 });
    const hosts = hostsWith([{ free_ram_mb: 1024 }]);
    // Act
    const result = weighList(
      [spy as HostWeigher<unknown>],
      hosts,
      makeSpec(),
      makeContext(makeConfig(), hosts),
    );
    // Assess
    expect(Array.from(result)).toEqual([0]);
    expect(weigh).not.toHaveBeenCalled();
    expect(prepare).not.toHaveBeenCalled();
  });

  it("applies each host's aggregate multiplier after normalising over all hosts", () => {
    const w = weights(
      [RAMWeigher as HostWeigher<unknown>],
      [
        { free_ram_mb: 1024, aggregates: [{ name: 'a', metadata: { ram_weight_multiplier: '3' } }] },
        { free_ram_mb: 4096 },
      ],
    );
    expect(w).toEqual([0.75, 1]);
  });

  it('sums the weighted contributions of every weigher', () => {
    const w = weights(
      [RAMWeigher, DiskWeigher] as HostWeigher<unknown>[],
      [
        { free_ram_mb: 1024, free_disk_mb: 4096 },
        { free_ram_mb: 4096, free_disk_mb: 2048 },
      ],
      makeConfig({ filter_scheduler: { disk_weight_multiplier: 2 } }),
    );
    expect(w).toEqual([0.25 + 2, 1 + 1]);
  });
});

describe('weighing range', () => {
  const raws = (values: number[], bounds: { minval?: number; maxval?: number }) =>
    defineWeigher({
      name: 'Fixed',
      ...bounds,
      weigh: (host) => values[Number(host.host.slice(1))],
      multiplier: () => 1,
    });

  it.each([
    [
      'leaves a NaN raw weight out of the range and unclamped',
      [Number.NaN, 2, 4],
      { minval: 0 },
      [Number.NaN, 0.5, 1],
    ],
    ['clamps to maxval and fixes the top of the range there', [1, 3, 9], { maxval: 5 }, [0, 0.5, 1]],
    ['clamps below minval and fixes the bottom of the range there', [-3, 2, 4], { minval: 0 }, [0, 0.5, 1]],
  ])('%s', (_case, values, bounds, expected) => {
    // Prepare
    const hosts = hostsWith(values.map(() => ({})));
    // Act
    const w = weighList([raws(values, bounds)], hosts, makeSpec(), makeContext(makeConfig(), hosts));
    // Assess
    expect(Array.from(w)).toEqual(expected);
  });
});

describe('rankHosts', () => {
  it('orders by weight, best first', () => {
    expect(rankHosts(Float64Array.from([0.5, 2, -1, 1]))).toEqual([1, 3, 0, 2]);
  });

  it('keeps tied hosts in input order', () => {
    expect(rankHosts(Float64Array.from([1, 2, 2, 1, 2]))).toEqual([1, 2, 4, 0, 3]);
  });

  it('keeps tied hosts in input order when only the best are asked for', () => {
    expect(rankHosts(Float64Array.from([1, 2, 2, 1, 2]), 2)).toEqual([1, 2]);
  });

  it('returns every host when the limit is at least the host count', () => {
    expect(rankHosts(Float64Array.from([3, 1, 2]), 5)).toEqual([0, 2, 1]);
  });

  it('finds the same best hosts with a limit as the prefix of the full ranking', () => {
    // Few distinct values, so ties are common; infinities and -0 included.
    const weight = fc.oneof(
      fc.constantFrom(0, -0, 1, 2, -1, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
      fc.double({ noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(weight, { maxLength: 40 }), fc.nat({ max: 45 }), (values, k) => {
        const limit = k + 1;
        const w = Float64Array.from(values);
        expect(rankHosts(w, limit)).toEqual(rankHosts(w).slice(0, limit));
      }),
    );
  });
});
