import { describe, expect, it } from 'vitest';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import type { Aggregate } from '../../lib/model/hostState.js';
import { SharedMemberships } from '../../lib/model/memberships.js';

const zone = (az: string): Aggregate => ({
  name: `zone-${az}`,
  hosts: [],
  metadata: { availability_zone: az },
});
const ssd = (): Aggregate => ({ name: 'ssd', hosts: [], metadata: { storage: 'ssd' } });

describe('SharedMemberships', () => {
  it('hands out the first array of each membership for every equal one', () => {
    // Prepare
    const shared = new SharedMemberships();
    const first = shared.share([zone('az1'), ssd()]);
    // Act
    const again = shared.share([zone('az1'), ssd()]);
    const other = shared.share([zone('az2'), ssd()]);
    // Assess
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(shared.share([zone('az2'), ssd()])).toBe(other);
  });

  it.each([
    ['uuid', { ...zone('az1'), uuid: 'u-1' }],
    ['metadata value', { ...zone('az1'), metadata: { availability_zone: 'az9' } }],
    ['metadata key', { ...zone('az1'), metadata: { availability_zone: 'az1', ssd: 'true' } }],
    ['fewer metadata keys', { ...zone('az1'), metadata: {} }],
    ['hosts', { ...zone('az1'), hosts: ['cmp-1'] }],
  ])('keeps an aggregate of the same name apart when its %s differs', (_what, variant) => {
    // Prepare
    const shared = new SharedMemberships();
    const first = shared.share([zone('az1'), ssd()]);
    // Act
    const differing = shared.share([variant, ssd()]);
    // Assess: its own array, and equal ones find it after the first
    expect(differing).not.toBe(first);
    expect(differing[0]).toEqual(variant);
    expect(shared.share([structuredClone(variant), ssd()])).toBe(differing);
    expect(shared.share([zone('az1'), ssd()])).toBe(first);
  });

  it('hands out one object per distinct aggregate across memberships, and one empty list', () => {
    const shared = new SharedMemberships();
    const zoneOnly = shared.share([zone('az1')]);
    const both = shared.share([zone('az1'), ssd()]);
    expect(both[0]).toBe(zoneOnly[0]);
    expect(shared.share([])).toBe(shared.share([]));
  });

  it('tells memberships apart by order and by count', () => {
    const shared = new SharedMemberships();
    const both = shared.share([zone('az1'), ssd()]);
    expect(shared.share([ssd(), zone('az1')])).not.toBe(both);
    expect(shared.share([zone('az1')])).not.toBe(both);
  });
});

describe('parseHostStates', () => {
  it('gives the hosts of one membership one aggregates array, and others their own', () => {
    // Prepare: the same membership written out in full on two hosts, a third elsewhere
    const aggregates = (az: string) => [
      { name: `zone-${az}`, metadata: { availability_zone: az } },
      { name: 'ssd', metadata: { storage: 'ssd' } },
    ];
    // Act
    const [a, b, c] = parseHostStates([
      { host: 'a', aggregates: aggregates('az1') },
      { host: 'b', aggregates: aggregates('az1') },
      { host: 'c', aggregates: aggregates('az2') },
    ]);
    // Assess
    expect(b.aggregates).toBe(a.aggregates);
    expect(c.aggregates).not.toBe(a.aggregates);
    expect(c.aggregates[0].metadata).toEqual({ availability_zone: 'az2' });
  });
});
