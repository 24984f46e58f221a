import { describe, expect, it } from 'vitest';
import { Fleet } from '../../../lib/engine/fleet.js';
import type { Aggregate } from '../../../lib/model/hostState.js';
import { makeSpec } from '../../helpers/factories.js';
import { computeHost, kept, prefilter, removed } from './helpers.js';

const agg = (name: string, uuid?: string): Aggregate => ({ name, uuid, hosts: [], metadata: {} });
const A = agg('a', 'uuid-a');
const B = agg('b', 'uuid-b');
const C = agg('c'); // no uuid: matched by name

function fleet() {
  return [
    computeHost({ host: 'in-a', aggregates: [A] }),
    computeHost({ host: 'in-b', aggregates: [B] }),
    computeHost({ host: 'in-c', aggregates: [C] }),
    computeHost({ host: 'in-a-c', aggregates: [A, C] }),
    computeHost({ host: 'none' }),
  ];
}

describe('placementPrefilter member_of', () => {
  it.each([
    {
      name: 'one entry keeps hosts in any of its aggregates',
      aggregates: ['uuid-a,uuid-b'],
      expected: ['in-a', 'in-b', 'in-a-c'],
    },
    { name: 'several entries must all be met', aggregates: ['uuid-a,uuid-b', 'c'], expected: ['in-a-c'] },
    { name: 'an aggregate without uuid is matched by name', aggregates: ['c'], expected: ['in-c', 'in-a-c'] },
    { name: 'an aggregate with a uuid is not matched by name', aggregates: ['a'], expected: [] },
    {
      name: 'forbidden aggregates exclude their members',
      forbidden: ['uuid-a', 'c'],
      expected: ['in-b', 'none'],
    },
  ])('$name', ({ aggregates, forbidden, expected }) => {
    // Prepare
    const spec = makeSpec({ requested_destination: { aggregates, forbidden_aggregates: forbidden } });
    // Act
    const result = prefilter(fleet(), spec);
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('explains a missing membership with the host aggregates', () => {
    // Act
    const result = prefilter(fleet(), makeSpec({ requested_destination: { aggregates: ['uuid-b'] } }));
    // Assess
    expect(removed(result)['in-a-c']).toEqual([
      'Placement:member_of',
      'is in none of the aggregates requested by requested_destination.aggregates (uuid-b); its aggregates: a, c',
    ]);
  });

  it('explains a forbidden membership by naming the aggregate', () => {
    // Act
    const result = prefilter(
      fleet(),
      makeSpec({ requested_destination: { forbidden_aggregates: ['uuid-a'] } }),
    );
    // Assess
    expect(removed(result)['in-a'][1]).toBe(
      'is in aggregate a, excluded by requested_destination.forbidden_aggregates',
    );
  });

  it('gives hosts that share an aggregates array (a Fleet) the same answer', () => {
    // Prepare
    const hosts = Fleet.from([
      computeHost({ host: 'x', aggregates: [agg('a', 'uuid-a')] }),
      computeHost({ host: 'y', aggregates: [agg('b', 'uuid-b')] }),
      computeHost({ host: 'z', aggregates: [agg('a', 'uuid-a')] }),
    ]).hosts as ReturnType<typeof computeHost>[];
    // Act
    const result = prefilter(hosts, makeSpec({ requested_destination: { aggregates: ['uuid-a'] } }));
    // Assess
    expect(hosts[0].aggregates).toBe(hosts[2].aggregates);
    expect(kept(result)).toEqual(['x', 'z']);
  });
});
