import { describe, expect, it } from 'vitest';
import { BY_AGGREGATES, buildGroups, type HostGrouping } from '../../lib/engine/hostGroups.js';
import { fleetIndex } from '../../lib/engine/prefilter/fleetIndex.js';
import type { HostState } from '../../lib/model/hostState.js';
import { makeHost } from '../helpers/factories.js';

/** Hosts whose `extra.k` holds each value in turn. */
function hostsWith(values: unknown[]): HostState[] {
  return values.map((v, i) => ({ ...makeHost({ host: `h${i}`, nodename: `h${i}` }), extra: { k: v } }));
}

const BY_K: HostGrouping = { id: 'test:k', keys: [(h) => h.extra.k] };
const shared = { a: 1 };

describe('buildGroups', () => {
  it.each([
    ['numbers groups in order of first appearance', ['x', 'y', 'x', 'z'], [0, 1, 0, 2]],
    ['keeps -0 apart from 0 (Python prints them apart)', [0, -0, 0], [0, 1, 0]],
    ['puts NaN with NaN', [Number.NaN, 1, Number.NaN], [0, 1, 0]],
    ['tells null from undefined', [null, undefined, null], [0, 1, 0]],
    ['compares objects by identity', [shared, { a: 1 }, shared], [0, 1, 0]],
  ])('%s', (_case, values, expected) => {
    // Act
    const groups = buildGroups(hostsWith(values), BY_K);
    // Assess
    expect(Array.from(groups.groupOf)).toEqual(expected);
    expect(groups.size).toBe(Math.max(...expected) + 1);
  });

  it('combines keys: a group per distinct tuple', () => {
    // Prepare
    const hosts = hostsWith(['a', 'a', 'b', 'a']);
    hosts[1] = { ...hosts[1], hypervisor_type: 'xen' };
    const grouping: HostGrouping = { id: 'test:k+type', keys: [(h) => h.extra.k, (h) => h.hypervisor_type] };
    // Act
    const groups = buildGroups(hosts, grouping);
    // Assess
    expect(Array.from(groups.groupOf)).toEqual([0, 1, 2, 0]);
  });

  it('gives each group the position of its first host', () => {
    // Act
    const groups = buildGroups(hostsWith(['x', 'y', 'x', 'z', 'y']), BY_K);
    // Assess
    expect(Array.from(groups.first)).toEqual([0, 1, 3]);
  });

  it('numbers only the hosts within a subset, each group first met among them', () => {
    // Act
    const groups = buildGroups(hostsWith(['x', 'y', 'x', 'z', 'y']), BY_K, {
      positions: Int32Array.from([2, 4, 3]),
      count: 3,
    });
    // Assess
    expect([2, 4, 3].map((i) => groups.groupOf[i])).toEqual([0, 1, 2]);
    expect({ first: Array.from(groups.first), partial: groups.partial }).toEqual({
      first: [2, 4, 3],
      partial: true,
    });
  });

  it('puts every host in one group when there are no keys', () => {
    // Act
    const groups = buildGroups(hostsWith([1, 2, 3]), { id: 'test:none', keys: [] });
    // Assess
    expect({ groupOf: Array.from(groups.groupOf), size: groups.size }).toEqual({
      groupOf: [0, 0, 0],
      size: 1,
    });
  });
});

describe('FleetIndex.groups', () => {
  it('builds a grouping once per hosts array', () => {
    // Prepare
    const index = fleetIndex(hostsWith(['x', 'y']));
    // Act
    const first = index.groups(BY_K);
    const again = index.groups(BY_K);
    // Assess
    expect(again).toBe(first);
  });

  it('numbers aggregate memberships as the pre-filter does', () => {
    // Prepare
    const aggregates = [{ name: 'a', hosts: [], metadata: {} }];
    const hosts = [makeHost({ aggregates }), makeHost({ aggregates: [] }), makeHost({ aggregates })];
    const shares = [hosts[0], hosts[1], { ...hosts[2], aggregates: hosts[0].aggregates }];
    const index = fleetIndex(shares);
    // Act
    const groups = index.groups(BY_AGGREGATES);
    // Assess
    expect(Array.from(groups.groupOf)).toEqual(Array.from(index.aggregates.groupOf));
    expect(Array.from(groups.groupOf)).toEqual([0, 1, 0]);
  });
});
