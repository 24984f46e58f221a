import { describe, expect, it } from 'vitest';
import { Fleet } from '../../lib/engine/fleet.js';
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

describe('Fleet interning of aggregates, platforms and traits', () => {
  const zone = (az: string) => ({ name: 'zone', hosts: [], metadata: { availability_zone: az, b: 'x' } });

  it('shares equal values that arrive as distinct objects, metadata key order aside', () => {
    // Prepare: two hosts whose sub-values are equal by content, each its own objects
    const a = makeHost({ host: 'a', aggregates: [zone('az1')], traits: ['T1', 'T2'] });
    const b = makeHost({
      host: 'b',
      aggregates: [{ name: 'zone', hosts: [], metadata: { b: 'x', availability_zone: 'az1' } }],
      traits: ['T1', 'T2'],
    });
    a.supported_instances = [['x86_64', 'kvm', 'hvm']];
    b.supported_instances = [['x86_64', 'kvm', 'hvm']];
    // Act
    const [x, y] = Fleet.from([a, b]).hosts;
    // Assess
    expect(x.aggregates).toBe(y.aggregates);
    expect(x.supported_instances).toBe(y.supported_instances);
    expect(x.traits).toBe(y.traits);
  });

  it('keeps values apart that differ in one part', () => {
    // Prepare
    const a = makeHost({ host: 'a', aggregates: [zone('az1')], traits: ['T1'] });
    const b = makeHost({ host: 'b', aggregates: [zone('az2')], traits: ['T1', 'T2'] });
    const c = makeHost({ host: 'c', aggregates: [zone('az1'), zone('az2')], traits: [] });
    a.supported_instances = [['x86_64', 'kvm', 'hvm']];
    b.supported_instances = [['x86_64', 'qemu', 'hvm']];
    // Act
    const [x, y, z] = Fleet.from([a, b, c]).hosts;
    // Assess
    expect(x.aggregates).toEqual([zone('az1')]);
    expect(y.aggregates).toEqual([zone('az2')]);
    expect(z.aggregates).toEqual([zone('az1'), zone('az2')]);
    expect(z.aggregates[0]).toBe(x.aggregates[0]);
    expect(y.supported_instances).toEqual([['x86_64', 'qemu', 'hvm']]);
    expect([x.traits, y.traits, z.traits]).toEqual([['T1'], ['T1', 'T2'], []]);
  });
});
