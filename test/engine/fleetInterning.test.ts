import { describe, expect, it } from 'vitest';
import { Fleet } from '../../lib/engine/fleet.js';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import type { ServiceState } from '../../lib/model/hostState.js';
import { makeHost } from '../helpers/factories.js';

const BASE: ServiceState = { disabled: false, up: true };

// One variant per ServiceState field: interning must never merge two hosts that differ in any of them.
const VARIANTS: Record<keyof Required<ServiceState>, ServiceState> = {
  disabled: { ...BASE, disabled: true },
  up: { ...BASE, up: false },
  forced_down: { ...BASE, forced_down: true },
  disabled_reason: { ...BASE, disabled_reason: 'maintenance' },
  last_seen_up: { ...BASE, last_seen_up: '2026-12-01T12:00:00.000Z' },
  report_interval_seconds: { ...BASE, report_interval_seconds: 60 },
  assumed: { ...BASE, assumed: true },
};

describe('Fleet interning of service records', () => {
  it.each(Object.entries(VARIANTS))(
    'keeps a host whose service differs only in %s apart',
    (_field, variant) => {
      // Prepare
      const plain = makeHost({ host: 'plain' });
      const other = makeHost({ host: 'other' });
      plain.service = { ...BASE };
      other.service = variant;
      // Act
      const [a, b] = Fleet.from([plain, other]).hosts;
      // Assess
      expect(a.service).toEqual(BASE);
      expect(b.service).toEqual(variant);
    },
  );

  it('shares one record between hosts whose services are equal', () => {
    const hosts = ['a', 'b'].map((host) => Object.assign(makeHost({ host }), { service: { ...BASE } }));
    const [a, b] = Fleet.from(hosts).hosts;
    expect(a.service).toBe(b.service);
  });
});

describe('Fleet over hosts from the fast host-file path', () => {
  const doc = ['a', 'b', 'c'].map((host) => ({
    host,
    vcpus_total: 8,
    service: { disabled: false, up: true },
    supported_instances: [['x86_64', 'kvm', 'hvm']],
    aggregates: [{ name: 'ssd', metadata: { storage: 'ssd' } }],
  }));

  it('takes them as they are: already one layout, equal sub-values shared by the parse', () => {
    const hosts = parseHostStates(doc, 'hosts.json');
    const fleet = Fleet.from(hosts);
    expect(fleet.hosts).toStrictEqual(hosts);
    for (const [i, h] of fleet.hosts.entries()) expect(h).toBe(hosts[i]);
    const [a, b, c] = fleet.hosts;
    expect(a.aggregates).toBe(b.aggregates);
    expect(b.service).toBe(c.service);
    expect(a.supported_instances).toBe(c.supported_instances);
  });

  it('still lays out hosts that zod parsed (here: one with a NUMA topology) beside them', () => {
    const numa = { ...doc[0], host: 'numa', numa_topology: { cells: [{ id: 0, memory: 1024 }] } };
    const hosts = parseHostStates([...doc, numa], 'hosts.json');
    const fleet = Fleet.from(hosts);
    expect(fleet.hosts[3]).not.toBe(hosts[3]);
    expect(fleet.hosts[3]).toStrictEqual(hosts[3]);
    // Equal, though not shared with the fast path's: a mixed file costs one more membership, no more.
    expect(fleet.hosts[3].aggregates).toStrictEqual(fleet.hosts[0].aggregates);
  });
});

describe('Fleet.aggregateKeys', () => {
  it('holds every metadata key of every membership, shared or not', () => {
    // Prepare: two hosts share one membership (one interned array), a third has its own
    const zone = { name: 'zone', metadata: { availability_zone: 'az1' } };
    const heavy = { name: 'heavy', metadata: { ram_weight_multiplier: '-1', storage: 'ssd' } };
    const hosts = [
      makeHost({ host: 'a', aggregates: [zone] }),
      makeHost({ host: 'b', aggregates: [zone] }),
      makeHost({ host: 'c', aggregates: [zone, heavy] }),
      makeHost({ host: 'd' }),
    ];
    // Act
    const fleet = Fleet.from(hosts);
    // Assess
    expect(fleet.hosts[0].aggregates).toBe(fleet.hosts[1].aggregates);
    expect([...fleet.aggregateKeys].sort()).toEqual([
      'availability_zone',
      'ram_weight_multiplier',
      'storage',
    ]);
  });
});

describe('Fleet.withReplaced', () => {
  const zone = { name: 'zone', metadata: { availability_zone: 'az1' } };
  const hostsOf = (names: string[]) => names.map((host) => makeHost({ host, aggregates: [zone] }));

  it('is the Fleet that Fleet.from makes of the replaced array, the other hosts the very same objects', () => {
    // Prepare
    const fleet = Fleet.from(hostsOf(['a', 'b', 'c']));
    const [b2] = hostsOf(['b']);
    // Act
    const next = fleet.withReplaced(new Map([[1, { ...b2, free_ram_mb: 1 }]]));
    // Assess
    expect(next.hosts).toStrictEqual(
      Fleet.from([fleet.hosts[0], { ...b2, free_ram_mb: 1 }, fleet.hosts[2]]).hosts,
    );
    expect(next.hosts[0]).toBe(fleet.hosts[0]);
    expect(next.hosts[2]).toBe(fleet.hosts[2]);
    // Laid out as Fleet.from lays a host out: its membership is the fleet's shared array.
    expect(next.hosts[1].aggregates).toBe(fleet.hosts[0].aggregates);
    expect(fleet.hosts[1].free_ram_mb).not.toBe(1);
  });

  it('keeps a replacement that is laid out already as it is', () => {
    const fleet = Fleet.from(hostsOf(['a', 'b']));
    const moved = Fleet.from(hostsOf(['b'])).hosts[0];
    expect(fleet.withReplaced(new Map([[1, moved]])).hosts[1]).toBe(moved);
  });

  it('over hosts from the fast host-file path, lays every host out as Fleet.from does', () => {
    const hosts = parseHostStates(
      ['a', 'b'].map((host) => ({ host, vcpus_total: 8, service: { disabled: false, up: true } })),
      'hosts.json',
    );
    const fleet = Fleet.from(hosts);
    const next = fleet.withReplaced(new Map([[0, makeHost({ host: 'a' })]]));
    expect(next.hosts).toStrictEqual(Fleet.from([makeHost({ host: 'a' }), hosts[1]]).hosts);
    // The fast path's hosts stay as the fleet took them, so the carried index still knows them.
    expect(next.hosts[1]).toBe(fleet.hosts[1]);
  });
});
