import { describe, expect, it } from 'vitest';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import { Fleet } from '../../lib/engine/fleet.js';
import {
  BY_AGGREGATES,
  defineFilter,
  PASS,
  PluginError,
  reject,
  verifyGrouping,
} from '../../lib/engine/index.js';
import { fleetIndex } from '../../lib/engine/prefilter/fleetIndex.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { HostState } from '../../lib/model/hostState.js';
import { PLACID_FILTERS } from '../../lib/rebalance/filters/index.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

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
  const grouped = [...Object.values(NOVA_FILTERS), ...PLACID_FILTERS].filter((f) => f.groupedBy);

  it.each(grouped.map((f) => [f.name, f] as const))('holds for %s', async (_name, filter) => {
    for (const spec of SPECS) await expect(verifyGrouping(filter, HOSTS, { spec })).resolves.toBeUndefined();
  });

  it('names two hosts of one group that a plug-in grouping tells apart', async () => {
    // Grouped by aggregates, but the verdict reads the hypervisor type too.
    const Leaky = defineFilter<undefined>({
      name: 'Leaky',
      check: (h) =>
        h.aggregates.length > 0 && h.hypervisor_type === 'QEMU' ? PASS : reject(() => 'not QEMU'),
      groupedBy: () => BY_AGGREGATES,
    });
    await expect(verifyGrouping(Leaky, HOSTS)).rejects.toThrow(PluginError);
    await expect(verifyGrouping(Leaky, HOSTS)).rejects.toThrow(
      /Leaky.*groupedBy 'aggregates' puts h\d+\/n\d+ and h\d+\/n\d+ in one group/,
    );
  });
});

describe('grouping ids', () => {
  it("keep a plug-in's grouping apart from a built-in's that has the same id", async () => {
    // Prepare: ComputeFilter groups by the service record under the id 'service'; this plug-in
    // uses the same id for the hypervisor type.
    const QemuOnly = defineFilter({
      name: 'QemuOnly',
      check: (h) => (h.hypervisor_type === 'QEMU' ? PASS : reject(() => 'not QEMU')),
      groupedBy: () => ({ id: 'service', keys: [(h) => h.hypervisor_type] }),
    });
    const config = makeConfig({
      placid: { placement_prefilter: false },
      filter_scheduler: { enabled_filters: ['ComputeFilter', 'QemuOnly'] },
    });
    const fleet = Fleet.from(HOSTS);
    // Act
    const decision = await createScheduler(config, { filters: [QemuOnly] }).schedule(fleet, makeSpec(), {
      explain: true,
    });
    // Assess: the hosts ComputeFilter keeps that run QEMU are weighed, and no other
    const expected = HOSTS.filter((h) => !h.service.disabled && h.service.up && h.hypervisor_type === 'QEMU');
    expect(decision.error).toBeNull();
    expect(decision.weighed?.map((w) => w.host.host).sort()).toEqual(expected.map((h) => h.host).sort());
    expect(decision.eliminated().find((e) => e.filter === 'QemuOnly')?.reason).toBe('not QEMU');
  });

  it('are scoped per filter, and one filter giving one id two sets of keys is refused', () => {
    // Prepare
    const index = fleetIndex(Fleet.from(HOSTS).hosts);
    const byType = { id: 'aggregates', keys: [(h: HostState) => h.hypervisor_type] };
    // Act
    const builtIn = index.groups(BY_AGGREGATES, 'AggregateInstanceExtraSpecsFilter');
    const mine = index.groups(byType, 'Mine');
    // Assess
    expect(mine).not.toBe(builtIn);
    expect(mine.size).toBe(2);
    expect(index.groups({ id: 'aggregates', keys: byType.keys }, 'Mine')).toBe(mine);
    expect(() => index.groups({ id: 'aggregates', keys: [(h) => h.host] }, 'Mine')).toThrow(
      /Mine: groupedBy returned two groupings with different keys under the id 'aggregates'/,
    );
  });
});
