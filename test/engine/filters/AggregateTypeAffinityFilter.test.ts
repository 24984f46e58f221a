import { describe, expect, it } from 'vitest';
import { AggregateTypeAffinityFilter } from '../../../lib/engine/filters/AggregateTypeAffinityFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { explanation, flags, host, passes, survivors } from './filterHarness.js';

type Aggregates = HostStateInput['aggregates'];
const types = (...values: string[]): Aggregates =>
  values.map((v, i) => ({ name: `agg${i}`, metadata: { instance_type: v } }));
const flavor = (name: string) => makeSpec({ flavor: { name, vcpus: 1, memory_mb: 512 } });

describe('AggregateTypeAffinityFilter', () => {
  it('runs once per request and not on rebuild', () => {
    expect(flags(AggregateTypeAffinityFilter)).toEqual({ once: true, rebuild: false });
  });

  it.each([
    ['passes a host without aggregates', [], true],
    [
      'passes a host whose aggregates do not set instance_type',
      [{ name: 'a', metadata: { ssd: 'yes' } }],
      true,
    ],
    ['passes a host whose aggregate names the flavor', types('m1.small'), true],
    ['fails a host whose aggregate names other flavors only', types('m1.large'), false],
    ['finds the flavor in a comma-separated list', types('m1.tiny,m1.small'), true],
    ['strips spaces around each listed name', types('m1.tiny ,  m1.small '), true],
    ['passes when any one of several aggregates names the flavor', types('m1.large', 'm1.small'), true],
    ['compares whole names, not substrings', types('m1.smaller'), false],
    ['compares case-sensitively', types('M1.SMALL'), false],
    ['fails a host whose instance_type is empty', types(''), false],
  ])('%s', (_case, aggregates, expected) => {
    expect(
      passes(AggregateTypeAffinityFilter, host({ aggregates: aggregates as Aggregates }), {
        spec: flavor('m1.small'),
      }),
    ).toBe(expected);
  });

  it('answers per flavor for hosts sharing aggregates', async () => {
    // Prepare
    const shared = types('gpu.large');
    const hosts = [
      host({ host: 'g1', aggregates: shared }),
      host({ host: 'g2', aggregates: shared }),
      host({ host: 'any' }),
    ];
    // Act
    const gpu = await survivors(AggregateTypeAffinityFilter, hosts, { spec: flavor('gpu.large') });
    const small = await survivors(AggregateTypeAffinityFilter, hosts, { spec: flavor('m1.small') });
    // Assess
    expect(gpu).toEqual(['g1', 'g2', 'any']);
    expect(small).toEqual(['any']);
  });

  it('is skipped for the second instance of a multi-create', async () => {
    const hosts = [host({ aggregates: types('m1.large') })];
    expect(await survivors(AggregateTypeAffinityFilter, hosts, { index: 1 })).toEqual(['h0']);
  });

  it('explains with the flavor and the raw metadata values', () => {
    const text = explanation(
      AggregateTypeAffinityFilter,
      host({ aggregates: types('m1.large', 'm1.tiny,m1.xlarge') }),
    );
    expect(text).toBe(
      "flavor m1.small is not named in the host's aggregate metadata instance_type ('m1.large', 'm1.tiny,m1.xlarge')",
    );
  });
});
