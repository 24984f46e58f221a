import { describe, expect, it } from 'vitest';
import { PCIWeigher } from '../../../lib/engine/weighers/PCIWeigher.js';
import { makeSpec } from '../../helpers/factories.js';
import { finalWeights, hostsWith, rawWeights } from './weigh.js';

const pools = (...counts: number[]) => ({
  pools: counts.map((count, i) => ({ vendor_id: '8086', product_id: `15${i}`, count })),
});

describe('PCIWeigher', () => {
  it.each([
    ['a host without PCI stats as if it had no devices', null, 100],
    ['a host with empty pools as if it had no devices', pools(), 100],
    ['the free devices summed over all pools', pools(2, 3), 95],
    ['98 free devices', pools(98), 2],
    ['99 free devices at the floor of 1', pools(99), 1],
    ['more than 99 free devices at the floor of 1', pools(100, 50), 1],
  ])('weighs %s', (_case, pciStats, expected) => {
    // Prepare
    const hosts = hostsWith([{ pci_stats: pciStats }]);
    // Act
    const raw = rawWeights(PCIWeigher, hosts);
    // Assess
    expect(raw).toEqual([expected]);
  });

  it('ignores whether the request asks for PCI devices', () => {
    const hosts = hostsWith([{ pci_stats: pools(4) }, { pci_stats: null }]);
    const withPci = makeSpec({ pci_requests: [{ count: 1, spec: [{ vendor_id: '8086' }] }] });
    expect(rawWeights(PCIWeigher, hosts, withPci)).toEqual(rawWeights(PCIWeigher, hosts, makeSpec()));
  });

  it('keeps requests off PCI hosts (min-max)', () => {
    const hosts = hostsWith([{ pci_stats: null }, { pci_stats: pools(99) }]);
    expect(finalWeights(PCIWeigher, hosts)).toEqual([1, 0]);
  });
});
