import { describe, expect, it } from 'vitest';
import { AggregateNumInstancesFilter } from '../../../lib/engine/filters/AggregateNumInstancesFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig } from '../../helpers/factories.js';
import { explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const aggs = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { max_instances_per_host: v } }));
const config = makeConfig({ filter_scheduler: { max_instances_per_host: 10 } });

/** The limit the filter applies, found as the smallest instance count it rejects. */
function effectiveLimit(aggregates: Aggregates): number {
  for (let n = 0; n < 100; n++) {
    if (!passes(AggregateNumInstancesFilter, host({ num_instances: n, aggregates }), { config })) return n;
  }
  return Number.POSITIVE_INFINITY;
}

describe('AggregateNumInstancesFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(AggregateNumInstancesFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['uses the config value when the host has no aggregates', [], 10],
    ['uses the config value when no aggregate sets the key', [{ name: 'a', metadata: { ssd: 'true' } }], 10],
    ['uses an aggregate value below the config value', aggs('4'), 4],
    ['uses an aggregate value above the config value', aggs('30'), 30],
    ['takes the smallest value across aggregates', aggs('7', '5'), 5],
    ['accepts a sign, as Python int() does', aggs('+6'), 6],
    ['falls back to the config value when one value is not an integer', aggs('3', 'lots'), 10],
    ['falls back to the config value for an empty value', aggs(''), 10],
  ])('%s', (_case, aggregates, expected) => {
    expect(effectiveLimit(aggregates as Aggregates)).toBe(expected);
  });

  it('applies each host its own aggregates within one run', async () => {
    // Prepare
    const small = aggs('2');
    const hosts = [
      host({ host: 'small-full', num_instances: 2, aggregates: small }),
      host({ host: 'small-free', num_instances: 1, aggregates: small }),
      host({ host: 'large', num_instances: 12, aggregates: aggs('20') }),
      host({ host: 'plain', num_instances: 10 }),
    ];
    // Act
    const left = await survivors(AggregateNumInstancesFilter, hosts, { config });
    // Assess
    expect(left).toEqual(['small-free', 'large']);
  });

  it.each([
    [
      'names the smallest aggregate value',
      aggs('7', '5'),
      "max_instances_per_host is 5 (the smallest aggregate metadata max_instances_per_host among '7', '5')",
    ],
    [
      'says why an unparsable value gave way to the config value',
      aggs('1.5'),
      "max_instances_per_host is 10 ([filter_scheduler] max_instances_per_host, because aggregate metadata max_instances_per_host='1.5' is not an integer)",
    ],
  ])('explains: %s', (_case, aggregates, expected) => {
    const text = explanation(AggregateNumInstancesFilter, host({ num_instances: 40, aggregates }), {
      config,
    });
    expect(text).toContain('host runs 40 instances');
    expect(text).toContain(expected);
  });

  it('passes every host on a rebuild', async () => {
    const hosts = [host({ num_instances: 40, aggregates: aggs('1') })];
    expect(await survivors(AggregateNumInstancesFilter, hosts, { spec: rebuildSpec(), config })).toEqual([
      'h0',
    ]);
  });
});
