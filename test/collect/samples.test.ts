import { describe, expect, it } from 'vitest';
import { MetricTable } from '../../lib/collect/metricTable.js';
import type { QueryName } from '../../lib/collect/queries.js';
import { hostSamples, stealOfDemand, vmSamples } from '../../lib/collect/samples.js';

const T0 = Date.UTC(2026, 11, 1, 12);
const GRID = [T0, T0 + 60_000, T0 + 120_000];
const iso = (i: number) => new Date(GRID[i]).toISOString();

/** A table for entity `e`: each query's values at the grid steps (undefined = no point). */
function table(
  values: Partial<Record<QueryName, (number | undefined)[]>>,
  options: { failed?: QueryName[]; off?: QueryName[]; entity?: string } = {},
): MetricTable {
  const entity = options.entity ?? 'e';
  const byQuery = new Map(
    Object.entries(values).map(([q, vs]) => [
      q as QueryName,
      new Map([[entity, new Map(vs.flatMap((v, i) => (v === undefined ? [] : [[GRID[i], v] as const])))]]),
    ]),
  );
  return new MetricTable(byQuery, new Set(options.failed), new Set(options.off));
}

const FULL = { vm_steal: [0.2, 0.2, 0.2], vm_busy: [1, 1, 1], vm_load5: [3, 3, 3] };

describe('vmSamples', () => {
  it("turns stolen and busy vCPUs into percent of the flavor's vCPUs", () => {
    const { samples, gaps } = vmSamples(table(FULL), 'e', 4, GRID);
    expect(samples[0]).toEqual({ ts: iso(0), steal_percent: 5, cpu_percent: 25, load5: 3 });
    expect([samples.length, gaps]).toEqual([3, []]);
  });

  it('writes no sample where a field is missing, and marks the step as a gap naming the field', () => {
    const { samples, gaps } = vmSamples(
      table({ ...FULL, vm_load5: [3, undefined, undefined] }),
      'e',
      4,
      GRID,
    );
    expect(samples.map((s) => s.ts)).toEqual([iso(0)]);
    expect(gaps).toEqual([{ from: iso(1), to: iso(2), reason: 'no_data', metrics: ['load5'] }]);
  });

  it('gives a VM with no series no samples and one gap over the window', () => {
    const { samples, gaps } = vmSamples(table({}), 'e', 4, GRID);
    expect(samples).toEqual([]);
    expect(gaps).toEqual([
      { from: iso(0), to: iso(2), reason: 'no_data', metrics: ['steal_percent', 'cpu_percent', 'load5'] },
    ]);
  });

  it('treats a step whose rate window holds a counter reset as a gap, not as data', () => {
    const { samples, gaps } = vmSamples(table({ ...FULL, vm_resets: [0, 2, 0] }), 'e', 4, GRID);
    expect(samples.map((s) => s.ts)).toEqual([iso(0), iso(2)]);
    expect(gaps).toEqual([
      { from: iso(1), to: iso(1), reason: 'counter_reset', metrics: ['steal_percent', 'cpu_percent'] },
    ]);
  });

  it('marks every step of a failed query as a source error', () => {
    const { samples, gaps } = vmSamples(table(FULL, { failed: ['vm_busy'] }), 'e', 4, GRID);
    expect(samples).toEqual([]);
    expect(gaps).toEqual([{ from: iso(0), to: iso(2), reason: 'source_error', metrics: ['cpu_percent'] }]);
  });

  it('uses the host-side vCPU wait as steal when the guest reports none', () => {
    const { samples } = vmSamples(table({ ...FULL, vm_steal: [], vm_wait: [0.4, 0.4, 0.4] }), 'e', 4, GRID);
    expect(samples.map((s) => s.steal_percent)).toEqual([10, 10, 10]);
  });

  it('prefers the guest steal over the host-side wait', () => {
    const { samples } = vmSamples(table({ ...FULL, vm_wait: [0.4, 0.4, 0.4] }), 'e', 4, GRID);
    expect(samples[0].steal_percent).toBe(5);
  });

  it.each([
    ['steal above 100 %', { vm_steal: [5, 0.2, 0.2] }, 'steal_percent'],
    ['a NaN rate', { vm_busy: [Number.NaN, 1, 1] }, 'cpu_percent'],
    ['a negative load', { vm_load5: [-1, 3, 3] }, 'load5'],
  ])('marks %s as an invalid value', (_what, override, field) => {
    const { samples, gaps } = vmSamples(table({ ...FULL, ...override }), 'e', 4, GRID);
    expect(samples).toHaveLength(2);
    expect(gaps).toEqual([{ from: iso(0), to: iso(0), reason: 'invalid_value', metrics: [field] }]);
  });

  it('clamps an extrapolation overshoot of a hair to 100 %', () => {
    const { samples } = vmSamples(table({ ...FULL, vm_busy: [4.02, 1, 1] }), 'e', 4, GRID);
    expect(samples[0].cpu_percent).toBe(100);
  });

  it('reports the demand (stolen and busy vCPUs) of each complete step', () => {
    const { demand } = vmSamples(table({ ...FULL, vm_busy: [1, undefined, 1] }), 'e', 4, GRID);
    expect([...demand.keys()]).toEqual([GRID[0], GRID[2]]);
    expect(demand.get(GRID[0])).toEqual({ stolen: 0.2, busy: 1 });
  });
});

describe('hostSamples', () => {
  const HOST = { host_cpu: [50, 50, 50], host_load5: [8, 8, 8] };

  it('takes steal from the host-side query', () => {
    const { samples } = hostSamples(table({ ...HOST, host_steal: [12, 12, 12] }), 'e', GRID, () => [], false);
    expect(samples[0]).toEqual({ ts: iso(0), steal_percent: 12, cpu_percent: 50, load5: 8 });
  });

  it('sends no samples without host-side steal, unless told to fall back to its VMs', () => {
    const vms = () => [{ stolen: 1, busy: 3 }];
    const none = hostSamples(table(HOST), 'e', GRID, vms, false);
    const fallback = hostSamples(table(HOST), 'e', GRID, vms, true);
    expect(none.samples).toEqual([]);
    expect(none.gaps).toEqual([{ from: iso(0), to: iso(2), reason: 'no_data', metrics: ['steal_percent'] }]);
    expect(fallback.samples.map((s) => s.steal_percent)).toEqual([25, 25, 25]);
  });
});

describe('stealOfDemand', () => {
  it("is the share of the VMs' demand lost, not a mean of their guest steal", () => {
    // Prepare: two 4-vCPU VMs each losing 25 % of their demand; the busy one shows 25 % guest
    // steal (1 of 4 vCPUs), the half-idle one 12.5 % (0.5 of 4): a plain or vCPU-weighted mean
    // would read 18.75 %.
    const vms = [
      { stolen: 1, busy: 3 },
      { stolen: 0.5, busy: 1.5 },
    ];
    // Act
    const { samples } = hostSamples(
      table({ host_cpu: [50, 50, 50], host_load5: [8, 8, 8] }),
      'e',
      GRID,
      () => vms,
      true,
    );
    // Assess
    expect(samples.map((s) => s.steal_percent)).toEqual([25, 25, 25]);
  });

  it.each([
    [[], undefined],
    [[{ stolen: 0, busy: 0 }], 0],
    [
      [
        { stolen: 1, busy: 1 },
        { stolen: 0, busy: 2 },
      ],
      25,
    ],
  ])('of %j is %s', (vms, expected) => {
    expect(stealOfDemand(vms)).toBe(expected);
  });
});
