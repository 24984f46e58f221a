import { describe, expect, it } from 'vitest';
import { AggregateCoreFilter } from '../../../lib/engine/filters/AggregateCoreFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const ratios = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { cpu_allocation_ratio: v } }));
const cpus = (vcpus: number) => makeSpec({ flavor: { name: 'f', vcpus, memory_mb: 512 } });
/** 4 vCPUs with 8 in use: 2 more fit from ratio 2.5 up. */
const busy = (ratio: number | undefined, aggregates: Aggregates, name = 'h0') =>
  host({ host: name, vcpus_total: 4, vcpus_used: 8, cpu_allocation_ratio: ratio, aggregates });

describe('AggregateCoreFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(AggregateCoreFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['uses the host ratio without aggregates', 2, [], false],
    ['uses the default initial ratio of 4.0 for a host without one', undefined, [], true],
    ['lets an aggregate raise the ratio', 2, ratios('2.5'), true],
    ['lets an aggregate lower the ratio', 16, ratios('2'), false],
    ['takes the smallest aggregate ratio', 16, ratios('8', '2.4'), false],
    ['falls back to the host ratio when one value is not a number', 3, ratios('1', 'x'), true],
  ])('%s', (_case, hostRatio, aggregates, expected) => {
    expect(passes(AggregateCoreFilter, busy(hostRatio, aggregates as Aggregates), { spec: cpus(2) })).toBe(
      expected,
    );
  });

  it('still passes a host reporting no vCPUs, whatever the aggregates say', () => {
    const h = host({ vcpus_total: 0, aggregates: ratios('0.1') });
    expect(passes(AggregateCoreFilter, h, { spec: cpus(64) })).toBe(true);
  });

  it('falls back per host for hosts sharing aggregates', async () => {
    const shared = ratios('n/a');
    const hosts = [busy(3, shared, 'roomy'), busy(2, shared, 'tight')];
    expect(await survivors(AggregateCoreFilter, hosts, { spec: cpus(2) })).toEqual(['roomy']);
  });

  it('passes every host on a rebuild', async () => {
    expect(await survivors(AggregateCoreFilter, [busy(1, ratios('1'))], { spec: rebuildSpec() })).toEqual([
      'h0',
    ]);
  });

  it('explains with the aggregate ratio', () => {
    expect(explanation(AggregateCoreFilter, busy(16, ratios('2')), { spec: cpus(2) })).toBe(
      "host has 0 vCPUs left: 4 × cpu_allocation_ratio 2 (the smallest aggregate metadata cpu_allocation_ratio among '2') " +
        '= 8, minus 8 in use; the flavor needs 2',
    );
  });
});
