import { describe, expect, it } from 'vitest';
import { NumInstancesFilter } from '../../../lib/engine/filters/NumInstancesFilter.js';
import { makeConfig } from '../../helpers/factories.js';
import { agg, explanation, flags, host, passes, rebuildSpec, survivors } from './filterHarness.js';

const limit = (max_instances_per_host: number) =>
  makeConfig({ filter_scheduler: { max_instances_per_host } });

describe('NumInstancesFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    expect(flags(NumInstancesFilter)).toEqual({ once: false, rebuild: false });
  });

  it.each([
    ['passes a host below the default limit of 50', 49, undefined, true],
    ['fails a host at the limit (the comparison is strict)', 50, undefined, false],
    ['fails a host above the limit', 51, undefined, false],
    ['passes an empty host', 0, undefined, true],
    ['follows a configured limit', 1, 2, true],
    ['lets only empty hosts through with the minimum limit of 1', 1, 1, false],
  ])('%s', (_case, numInstances, max, expected) => {
    const config = max === undefined ? makeConfig() : limit(max);
    expect(passes(NumInstancesFilter, host({ num_instances: numInstances }), { config })).toBe(expected);
  });

  it('counts num_instances, not the instance map', () => {
    const h = host({ num_instances: 0, instances: ['a', 'b', 'c'] });
    expect(passes(NumInstancesFilter, h, { config: limit(2) })).toBe(true);
  });

  it('ignores aggregate metadata (only AggregateNumInstancesFilter reads it)', () => {
    const h = host({ num_instances: 5, aggregates: agg({ max_instances_per_host: '2' }) });
    expect(passes(NumInstancesFilter, h)).toBe(true);
  });

  it('explains with the instance count and the limit', () => {
    expect(explanation(NumInstancesFilter, host({ num_instances: 3 }), { config: limit(3) })).toBe(
      'host runs 3 instances; max_instances_per_host is 3 ([filter_scheduler] max_instances_per_host), ' +
        'so it needs fewer than 3',
    );
  });

  it('still filters the second instance of a multi-create', async () => {
    // Prepare
    const hosts = [host({ host: 'empty' }), host({ host: 'full', num_instances: 2 })];
    // Act
    const left = await survivors(NumInstancesFilter, hosts, { index: 1, config: limit(2) });
    // Assess
    expect(left).toEqual(['empty']);
  });

  it('passes every host on a rebuild', async () => {
    const hosts = [host({ host: 'full', num_instances: 500 })];
    expect(await survivors(NumInstancesFilter, hosts, { spec: rebuildSpec() })).toEqual(['full']);
  });
});
