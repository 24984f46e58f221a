import { describe, expect, it } from 'vitest';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import { PLACID_FILTERS } from '../../lib/engine/filters/placid.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { BY_AGGREGATES, defineFilter, PluginError, verifyGrouping } from '../../lib/engine/index.js';
import { fleetIndex } from '../../lib/engine/prefilter/fleetIndex.js';
import { makeHost, makeSpec } from '../helpers/factories.js';

const ZONE_A = { name: 'zone-a', metadata: { availability_zone: 'az-a' } };
const SSD = { name: 'ssd', metadata: { storage: 'ssd' } };

/** Hosts varied in everything the built-in grouped filters read. */
const HOSTS = Array.from({ length: 24 }, (_, i) =>
  makeHost({
    host: `h${i}`,
    nodename: `n${i}`,
    aggregates: [[], [ZONE_A], [ZONE_A, SSD], [SSD]][i % 4],
    service: [
      { disabled: false, up: true },
      { disabled: true, up: true },
      { disabled: false, up: false },
    ][i % 3],
    hypervisor_type: i % 5 === 0 ? 'xen' : 'QEMU',
    hypervisor_version: i % 2 === 0 ? 6000000 : 8002000,
    supported_instances: i % 3 === 0 ? [['aarch64', 'qemu', 'hvm']] : [['x86_64', 'kvm', 'hvm']],
    stats: i % 2 === 0 ? { tier: 'gold' } : {},
  }),
);

const SPECS = [
  makeSpec(),
  makeSpec({ availability_zone: 'az-a' }),
  makeSpec({
    flavor: {
      name: 'f',
      vcpus: 1,
      memory_mb: 512,
      root_gb: 1,
      extra_specs: { storage: 'ssd', 'capabilities:hypervisor_type': 'QEMU' },
    },
    image: { id: 'i', properties: { hw_architecture: 'x86_64', img_hv_requested_version: '>=7.0' } },
  }),
];

describe('verifyGrouping', () => {
  const grouped = Object.values({ ...NOVA_FILTERS, ...PLACID_FILTERS }).filter((f) => f.groupedBy);

  it.each(grouped.map((f) => [f.name, f] as const))('holds for %s', async (_name, filter) => {
    for (const spec of SPECS) await expect(verifyGrouping(filter, HOSTS, { spec })).resolves.toBeUndefined();
  });

  it('names two hosts of one group that a plug-in grouping tells apart', async () => {
    // Grouped by aggregates, but the verdict reads the hypervisor type too.
    const Leaky = defineFilter<undefined>({
      name: 'Leaky',
      hostPasses: (h) => h.aggregates.length > 0 && h.hypervisor_type === 'QEMU',
      groupedBy: () => BY_AGGREGATES,
    });
    await expect(verifyGrouping(Leaky, HOSTS)).rejects.toThrow(PluginError);
    await expect(verifyGrouping(Leaky, HOSTS)).rejects.toThrow(
      /Leaky.*groupedBy 'aggregates' puts h\d+\/n\d+ and h\d+\/n\d+ in one group/,
    );
  });
});

describe('grouping ids', () => {
  it("refuse a plug-in grouping that reuses a built-in's id with other keys", () => {
    // Prepare
    const hosts = Fleet.from(HOSTS).hosts;
    const index = fleetIndex(hosts);
    index.groups(BY_AGGREGATES);
    // Act + Assess
    expect(() => index.groups({ id: 'aggregates', keys: [(h) => h.hypervisor_type] })).toThrow(
      /share this id/,
    );
    expect(index.groups({ id: 'aggregates', keys: BY_AGGREGATES.keys })).toBe(index.groups(BY_AGGREGATES));
  });
});
