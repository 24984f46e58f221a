import { describe, expect, it } from 'vitest';
import { NUMATopologyFilter } from '../../../lib/engine/filters/NUMATopologyFilter.js';
import { PciPassthroughFilter } from '../../../lib/engine/filters/PciPassthroughFilter.js';
import { Scheduler } from '../../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeConfig, makeHost, makeSpec } from '../../helpers/factories.js';

const config = makeConfig({ placid: { placement_prefilter: false } });
const scheduler = new Scheduler(config, [NUMATopologyFilter, PciPassthroughFilter], [RAMWeigher]);

type Cell = NonNullable<HostStateInput['numa_topology']>['cells'][number];

/** A host cell with 4 dedicated CPUs, each its own core, and 4 GiB. */
const cell = (id: number, over: Partial<Cell> = {}): Cell => {
  const pcpuset = [0, 1, 2, 3].map((i) => id * 4 + i);
  return { id, cpuset: [], pcpuset, siblings: pcpuset.map((c) => [c]), memory: 4096, ...over };
};
/** A pool as operators supply it. */
type PciPool = NonNullable<HostStateInput['pci_stats']>['pools'][number];
const nic = (over: Partial<PciPool> = {}): PciPool => ({
  vendor_id: '8086',
  product_id: '1520',
  count: 1,
  ...over,
});
const nicRequest = (numa_policy: 'required' | null = null) => [
  { count: 1, spec: [{ vendor_id: '8086', product_id: '1520' }], numa_policy },
];
/** Instances with one guest cell of `pinned` dedicated CPUs. */
const pinnedSpec = (num_instances: number, pinned: number, extra: Parameters<typeof makeSpec>[0] = {}) =>
  makeSpec({
    num_instances,
    flavor: { name: 'pinned', vcpus: pinned, memory_mb: 1024, extra_specs: { 'hw:cpu_policy': 'dedicated' } },
    numa_topology: { cells: [{ id: 0, pcpuset: [...Array(pinned).keys()], memory: 1024 }] },
    ...extra,
  });

describe('NUMA and PCI consumption between the instances of a multi-create', () => {
  it('pins the second instance on the CPUs the first one left', async () => {
    // Prepare: one host, two cells of 4 dedicated CPUs each
    const host = makeHost({ host: 'a', free_ram_mb: 8192, numa_topology: { cells: [cell(0), cell(1)] } });
    // Act
    const d = await scheduler.schedule([host], pinnedSpec(2, 4));
    // Assess
    expect(d.error).toBeNull();
    expect(d.placements[0].host.numa_topology?.cells.map((c) => c.pinned_cpus)).toEqual([[0, 1, 2, 3], []]);
    expect(d.placements[1].host.numa_topology?.cells.map((c) => c.pinned_cpus)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(host.numa_topology?.cells.map((c) => c.pinned_cpus)).toEqual([[], []]);
  });

  it('finds no host for an instance once the earlier ones pinned every CPU', async () => {
    // Prepare
    const host = makeHost({ host: 'a', free_ram_mb: 8192, numa_topology: { cells: [cell(0), cell(1)] } });
    // Act
    const d = await scheduler.schedule([host], pinnedSpec(3, 4));
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });

  it('sends the second instance elsewhere once the first took the last device', async () => {
    // Prepare: a has more free RAM, so it wins whenever it still has a device
    const hosts = [
      makeHost({ host: 'a', free_ram_mb: 8192, pci_stats: { pools: [nic()] } }),
      makeHost({ host: 'b', free_ram_mb: 4096, pci_stats: { pools: [nic()] } }),
    ];
    const spec = makeSpec({ num_instances: 2, pci_requests: nicRequest() });
    // Act
    const d = await scheduler.schedule(hosts, spec);
    // Assess
    expect(d.placements.map((p) => p.host.host)).toEqual(['a', 'b']);
    expect(d.placements[0].host.pci_stats?.pools[0].count).toBe(0);
    expect(hosts[0].pci_stats?.pools[0].count).toBe(1);
  });

  it('takes each instance its device from the NUMA cell it was pinned to', async () => {
    // Prepare: one device per cell, listed node 1 first; cell 1 has one CPU pinned already
    const host = makeHost({
      host: 'a',
      free_ram_mb: 8192,
      numa_topology: { cells: [cell(0), cell(1, { pinned_cpus: [4] })] },
      pci_stats: { pools: [nic({ numa_node: 1 }), nic({ numa_node: 0 })] },
    });
    const spec = pinnedSpec(2, 1, { pci_requests: nicRequest('required') });
    // Act
    const d = await scheduler.schedule([host], spec);
    // Assess: the first instance went to cell 0 and used cell 0's device, so the second needs cell 1
    expect(d.error).toBeNull();
    expect(d.placements[0].host.pci_stats?.pools.map((p) => [p.numa_node, p.count])).toEqual([
      [1, 1],
      [0, 0],
    ]);
    expect(d.placements[1].host.numa_topology?.cells.map((c) => c.pinned_cpus)).toEqual([[0], [4, 5]]);
  });
});
