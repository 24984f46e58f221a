import { describe, expect, it } from 'vitest';
import type { Candidates } from '../../lib/engine/candidates.js';
import { defineFilter, type HostFilter, PASS, reject } from '../../lib/engine/filter.js';
import { Fleet } from '../../lib/engine/fleet.js';
import type { HostGrouping } from '../../lib/engine/hostGroups.js';
import { fleetIndex } from '../../lib/engine/prefilter/fleetIndex.js';
import { sieveFilters } from '../../lib/engine/sieve.js';
import type { HostState } from '../../lib/model/hostState.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../helpers/factories.js';

const OTHER_TYPE = reject<unknown>((host) => `hypervisor type ${host.hypervisor_type}`);
const BY_TYPE: HostGrouping = { id: 'test:hypervisor_type', keys: [(h) => h.hypervisor_type] };

/** A filter grouped by hypervisor type that passes `passing` types and records whom it was asked. */
function byType(passing: string[], asked: string[], raises?: string): HostFilter<unknown> {
  return defineFilter<unknown>({
    name: 'ByType',
    check: (host) => {
      asked.push(host.host);
      if (host.hypervisor_type === raises) throw new Error('cannot read this host');
      return passing.includes(host.hypervisor_type ?? '') ? PASS : OTHER_TYPE;
    },
    groupedBy: () => BY_TYPE,
  });
}

/** `types` as hosts h0, h1, ... of one fleet, with the given positions as candidates. */
function candidatesOf(types: string[], positions: number[]): Candidates {
  const hosts = Fleet.from(
    types.map((t, i) => makeHost({ host: `h${i}`, nodename: `h${i}`, hypervisor_type: t })),
  ).hosts;
  return { hosts, index: fleetIndex(hosts), positions: Int32Array.from(positions), count: positions.length };
}

const survivors = (c: Candidates): string[] =>
  Array.from(c.positions.subarray(0, c.count), (i) => c.hosts[i].host);
const ctxOf = (c: Candidates) => ({
  ...makeContext(makeConfig()),
  fleet: Fleet.from(c.hosts as HostState[]),
});

describe('sieveFilters', () => {
  it('asks a grouped filter once per distinct value, not once per host', async () => {
    // Prepare
    const asked: string[] = [];
    const c = candidatesOf(['kvm', 'xen', 'kvm', 'kvm', 'xen'], [0, 1, 2, 3, 4]);
    // Act
    await sieveFilters([byType(['kvm'], asked)], c, makeSpec(), ctxOf(c));
    // Assess
    expect(asked).toHaveLength(2);
    expect(survivors(c)).toEqual(['h0', 'h2', 'h3']);
  });

  it('counts what a grouped filter removed, as Nova logs it', async () => {
    // Prepare
    const c = candidatesOf(['kvm', 'xen', 'kvm'], [0, 1, 2]);
    // Act
    const counts = await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
    // Assess
    expect(counts).toEqual([{ filter: 'ByType', start: 3, end: 2, instance_index: 0 }]);
  });

  it('keeps every candidate without reading them when every group passes', async () => {
    // Prepare
    const c = candidatesOf(['kvm', 'xen', 'kvm'], [0, 2]);
    // Act
    const counts = await sieveFilters([byType(['kvm', 'xen'], [])], c, makeSpec(), ctxOf(c));
    // Assess
    expect(survivors(c)).toEqual(['h0', 'h2']);
    expect(counts[0]).toMatchObject({ start: 2, end: 2 });
  });

  describe('after a pre-filter that told which aggregate memberships can hold candidates', () => {
    const zone = (name: string) => [{ name, hosts: [], metadata: { availability_zone: name } }];
    const [A, B] = [zone('a'), zone('b')];
    /** Hosts h0.. of `types` in memberships `zones`; candidates: `positions`, memberships a (-1) and b (0). */
    function zonedCandidates(
      types: string[],
      zones: (typeof A)[],
      positions: number[],
      bMayHold = false,
      blocked: number[] | null = null,
    ) {
      const hosts = Fleet.from(
        types.map((t, i) => makeHost({ host: `h${i}`, hypervisor_type: t, aggregates: zones[i] })),
      ).hosts;
      const c: Candidates = {
        hosts,
        index: fleetIndex(hosts),
        positions: Int32Array.from(positions),
        count: positions.length,
        memberships: Int16Array.from([-1, bMayHold ? -1 : 0]),
        blocked: blocked ? () => Uint8Array.from(blocked) : null,
      };
      return c;
    }

    it('keeps every candidate when each membership that may hold one lies in a passing group', async () => {
      // Prepare: zone a is all kvm (passes), zone b all xen (fails) and holds no candidate
      const c = zonedCandidates(['kvm', 'xen', 'kvm', 'xen'], [A, B, A, B], [0, 2]);
      // Act
      const counts = await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
      // Assess
      expect(survivors(c)).toEqual(['h0', 'h2']);
      expect(counts[0]).toMatchObject({ start: 2, end: 2 });
    });

    it('still removes the candidates of a failing group that a membership which may hold candidates lies in', async () => {
      // Prepare: zone b may hold candidates (h1 is one) and is all xen
      const c = zonedCandidates(['kvm', 'xen', 'kvm', 'xen'], [A, B, A, B], [0, 1, 2], true);
      // Act
      const counts = await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
      // Assess
      expect(survivors(c)).toEqual(['h0', 'h2']);
      expect(counts[0]).toMatchObject({ start: 3, end: 2 });
    });

    it('keeps every candidate when the failing group is blocked wherever it could hold candidates', async () => {
      // Prepare: xen's host in zone a (h1) is blocked (disabled, say); its other host is in zone b
      const c = zonedCandidates(['kvm', 'xen', 'kvm', 'xen'], [A, A, A, B], [0, 2], false, [0, 1, 0, 0]);
      // Act
      const counts = await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
      // Assess
      expect(survivors(c)).toEqual(['h0', 'h2']);
      expect(counts[0]).toMatchObject({ start: 2, end: 2 });
    });

    it('removes a candidate of a failing group that is not blocked where candidates can be', async () => {
      // Prepare: as above, but h1 is not blocked and is a candidate
      const c = zonedCandidates(['kvm', 'xen', 'kvm', 'xen'], [A, A, A, B], [0, 1, 2], false, [0, 0, 0, 1]);
      // Act
      const counts = await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
      // Assess
      expect(survivors(c)).toEqual(['h0', 'h2']);
      expect(counts[0]).toMatchObject({ start: 3, end: 2 });
    });

    it('reads the candidates when a membership spans a passing and a failing group', async () => {
      // Prepare: zone a holds kvm and xen hosts
      const c = zonedCandidates(['kvm', 'xen', 'xen', 'kvm'], [A, A, B, B], [0, 1]);
      // Act
      await sieveFilters([byType(['kvm'], [])], c, makeSpec(), ctxOf(c));
      // Assess
      expect(survivors(c)).toEqual(['h0']);
    });
  });

  it('names the first candidate of a group whose verdict raises, not a host outside the candidates', async () => {
    // Prepare
    const c = candidatesOf(['lxc', 'kvm', 'lxc'], [1, 2]);
    // Act
    const run = sieveFilters([byType(['kvm'], [], 'lxc')], c, makeSpec(), ctxOf(c));
    // Assess
    await expect(run).rejects.toThrow(/ByType: failed on host h2: cannot read this host/);
  });

  it('ignores the raising group when none of its hosts is a candidate', async () => {
    // Prepare
    const c = candidatesOf(['lxc', 'kvm', 'kvm'], [1, 2]);
    // Act
    await sieveFilters([byType(['kvm'], [], 'lxc')], c, makeSpec(), ctxOf(c));
    // Assess
    expect(survivors(c)).toEqual(['h1', 'h2']);
  });

  it('runs ungrouped filters host by host and stops counting at the first that leaves none', async () => {
    // Prepare
    const c = candidatesOf(['kvm', 'xen'], [0, 1]);
    const none = defineFilter({ name: 'None', check: () => reject(() => 'none pass') });
    const after = defineFilter({ name: 'After', check: () => PASS });
    // Act
    const counts = await sieveFilters([none, after], c, makeSpec(), ctxOf(c));
    // Assess
    expect(counts).toEqual([{ filter: 'None', start: 2, end: 0, instance_index: 0 }]);
    expect(c.count).toBe(0);
  });
});
