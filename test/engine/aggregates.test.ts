import { describe, expect, it, vi } from 'vitest';
import {
  type AggregateMemo,
  aggregateLimit,
  aggregateLimitOrigin,
  MembershipFacts,
  memoizedByAggregates,
} from '../../lib/engine/aggregates.js';
import type { HostState } from '../../lib/model/hostState.js';
import { makeHost } from '../helpers/factories.js';

const KEY = 'max_instances_per_host';

function hostIn(...values: string[]): HostState {
  return makeHost({ aggregates: values.map((v, i) => ({ name: `agg${i}`, metadata: { [KEY]: v } })) });
}

describe('memoizedByAggregates', () => {
  it('computes once for hosts that share an aggregate membership', () => {
    // Prepare
    const first = hostIn('5');
    const second: HostState = { ...first, host: 'host2' };
    const memo: AggregateMemo<number> = new Map();
    const compute = vi.fn((host: HostState, offset: number) => host.aggregates.length + offset);

    // Act
    const answers = [
      memoizedByAggregates(memo, first, compute, 10),
      memoizedByAggregates(memo, second, compute, 10),
    ];

    // Assess
    expect({ answers, calls: compute.mock.calls.length }).toEqual({ answers: [11, 11], calls: 1 });
  });
});

describe('aggregateLimit', () => {
  it.each([
    ['the fallback for a host in no aggregate', makeHost(), 'int', 50],
    [
      'the fallback when no aggregate sets the key',
      makeHost({ aggregates: [{ name: 'a', metadata: {} }] }),
      'int',
      50,
    ],
    ['the smallest aggregate value', hostIn('8', '3'), 'int', 3],
    ['the fallback when one value is not an integer', hostIn('8', 'x'), 'int', 50],
    ['a float value when floats are read', hostIn('1.5'), 'float', 1.5],
  ] as const)('gives %s', (_case, host, cast, expected) => {
    expect(aggregateLimit(host, new Map(), KEY, 50, cast)).toBe(expected);
  });
});

describe('aggregateLimitOrigin', () => {
  it.each([
    ['no aggregate sets the key', makeHost(), 'int', `[conf]; no aggregate of the host sets ${KEY}`],
    [
      'one value is not an integer',
      hostIn('8', 'x'),
      'int',
      `[conf], because aggregate metadata ${KEY}='x' is not an integer`,
    ],
    [
      'one value is not a number',
      hostIn('y'),
      'float',
      `[conf], because aggregate metadata ${KEY}='y' is not a number`,
    ],
    ['every value parses', hostIn('8', '3'), 'int', `the smallest aggregate metadata ${KEY} among '8', '3'`],
  ] as const)('explains the limit when %s', (_case, host, cast, expected) => {
    expect(aggregateLimitOrigin(host, KEY, cast, '[conf]')).toBe(expected);
  });
});

describe('MembershipFacts.multiplier', () => {
  const ram = (...values: string[]) =>
    makeHost({
      aggregates: values.map((v, i) => ({ name: `agg${i}`, metadata: { ram_weight_multiplier: v } })),
    });

  it.each([
    ['takes the smallest aggregate override', ram('2', '0.5'), 0.5],
    ['falls back to the config value when no aggregate sets the key', makeHost(), 1],
    ['falls back to the config value when an override is not a number', ram('2', 'x'), 1],
  ])('%s', (_case, host, expected) => {
    // Act + Assess
    expect(new MembershipFacts().multiplier(host, 'ram_weight_multiplier', 1)).toBe(expected);
  });

  it('answers anew for the same membership under another config value', () => {
    // Prepare
    const host = ram('x');
    const facts = new MembershipFacts();
    facts.multiplier(host, 'ram_weight_multiplier', 1);
    // Act
    const other = facts.multiplier(host, 'ram_weight_multiplier', 3);
    // Assess
    expect(other).toBe(3);
  });

  it('keeps the answers of different keys apart for one membership', () => {
    // Prepare
    const host = makeHost({
      aggregates: [{ name: 'a', metadata: { ram_weight_multiplier: '2', cpu_weight_multiplier: '5' } }],
    });
    const facts = new MembershipFacts();
    // Act
    const answers = [
      facts.multiplier(host, 'ram_weight_multiplier', 1),
      facts.multiplier(host, 'cpu_weight_multiplier', 1),
    ];
    // Assess
    expect(answers).toEqual([2, 5]);
  });
});

describe('MembershipFacts', () => {
  it('answers for the fleet it belongs to: a fleet built after a membership changed reads the change', () => {
    // Prepare: one aggregates array, read by a fleet, then (against the rules) changed in place
    const aggregates = [{ name: 'zone', hosts: [], metadata: { availability_zone: 'az1' } }];
    const host = makeHost({ aggregates });
    const first = new MembershipFacts();
    expect([...first.zones(host)]).toEqual(['az1']);
    host.aggregates[0].metadata.availability_zone = 'az2';
    // Act
    const later = new MembershipFacts();
    // Assess: no answer outlives the facts object that worked it out
    expect([...later.zones(host)]).toEqual(['az2']);
    expect([...first.zones(host)]).toEqual(['az1']);
  });
});
