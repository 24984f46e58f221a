import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../../lib/config/options.js';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { NUMATopologyFilter } from '../../../lib/engine/filters/NUMATopologyFilter.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

type Cell = NonNullable<HostStateInput['numa_topology']>['cells'][number];
type SpecInput = Parameters<typeof makeSpec>[0];

/** A host cell with 4 dedicated CPUs (each its own core unless `threads` is 2) and 4 GiB. */
function cell(id: number, over: Partial<Cell> = {}, threads = 1): Cell {
  const pcpuset = [0, 1, 2, 3].map((i) => id * 4 + i);
  const siblings = threads === 2 ? [pcpuset.slice(0, 2), pcpuset.slice(2)] : pcpuset.map((c) => [c]);
  return { id, cpuset: [], pcpuset, siblings, memory: 4096, ...over };
}

function numaHost(cells: Cell[], over: Partial<HostStateInput> = {}): HostState {
  return makeHost({ host: 'h1', numa_topology: { cells }, ...over });
}

/** A request with one guest cell of `pinned` dedicated CPUs (hw:cpu_policy=dedicated). */
function pinnedSpec(pinned: number, over: SpecInput = {}): RequestSpec {
  return makeSpec({
    flavor: { name: 'f', vcpus: pinned, memory_mb: 1024, extra_specs: { 'hw:cpu_policy': 'dedicated' } },
    numa_topology: { cells: [{ id: 0, pcpuset: [...Array(pinned).keys()], memory: 1024 }] },
    ...over,
  });
}

/** Runs prepare then check, as the filter handler does. */
function passes(host: HostState, spec: RequestSpec, config: SchedulerConfig = makeConfig()): boolean {
  const ctx = makeContext(config);
  const state = NUMATopologyFilter.prepare?.(spec, ctx);
  if (state === PASS_ALL) return true;
  return NUMATopologyFilter.check(host, spec, state as never, ctx) === PASS;
}

function explain(host: HostState, spec: RequestSpec): string {
  const ctx = makeContext();
  const state = NUMATopologyFilter.prepare?.(spec, ctx);
  return rejectionMessage(NUMATopologyFilter, host, spec, state as never, ctx) ?? '';
}

const requireThreads = { 'hw:cpu_policy': 'dedicated', 'hw:cpu_thread_policy': 'require' };

describe('NUMATopologyFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    // Assess
    expect(NUMATopologyFilter.runFilterOncePerRequest).toBeFalsy();
    expect(NUMATopologyFilter.runOnRebuild).toBeFalsy();
  });

  it('passes every host when the request has no NUMA topology and no thread requirement', () => {
    // Act
    const state = NUMATopologyFilter.prepare?.(makeSpec(), makeContext());
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    ['flavor policy and flavor thread policy', requireThreads, {}],
    [
      'flavor policy and image thread policy',
      { 'hw:cpu_policy': 'dedicated' },
      { hw_cpu_thread_policy: 'require' },
    ],
    [
      'image policy and flavor thread policy',
      { 'hw:cpu_thread_policy': 'require' },
      { hw_cpu_policy: 'dedicated' },
    ],
  ])(
    'requires hyper-threads for dedicated CPUs with thread policy require (%s)',
    (_case, extra_specs, properties) => {
      // Prepare
      const spec = makeSpec({
        flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs },
        image: { properties },
      });
      // Act
      const withThreads = passes(numaHost([cell(0, {}, 2)]), spec);
      const without = passes(numaHost([cell(0)]), spec);
      // Assess
      expect([withThreads, without]).toEqual([true, false]);
    },
  );

  it('does not ask a host without a NUMA topology for hyper-threads', () => {
    // Prepare
    const spec = makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs: requireThreads } });
    // Act
    const ok = passes(makeHost({ host: 'h1' }), spec);
    // Assess
    expect(ok).toBe(true);
  });

  it.each([
    ['a guest that fits', numaHost([cell(0)]), pinnedSpec(4), true],
    [
      'a guest needing more dedicated CPUs than are free',
      numaHost([cell(0, { pinned_cpus: [0, 1] })]),
      pinnedSpec(4),
      false,
    ],
    ['a guest topology on a host without one', makeHost({ host: 'h1' }), pinnedSpec(1), false],
    [
      'a guest needing more cells than the host has',
      numaHost([cell(0)]),
      makeSpec({
        numa_topology: {
          cells: [
            { id: 0, cpuset: [0], memory: 512 },
            { id: 1, cpuset: [1], memory: 512 },
          ],
        },
      }),
      false,
    ],
  ])('decides %s', (_case, host, spec, expected) => {
    // Act
    const ok = passes(host, spec);
    // Assess
    expect(ok).toBe(expected);
  });

  it('takes the PCI NUMA affinity into account', () => {
    // Prepare: the only device is on cell 1, whose CPUs are all pinned
    const host = numaHost([cell(0), cell(1, { pinned_cpus: [4, 5, 6, 7] })], {
      pci_stats: { pools: [{ vendor_id: '8086', product_id: '1520', count: 1, numa_node: 1 }] },
    });
    const pci = (numa_policy: 'required' | 'preferred') => ({
      pci_requests: [{ count: 1, spec: [{ vendor_id: '8086', product_id: '1520' }], numa_policy }],
    });
    // Act
    const required = passes(host, pinnedSpec(2, pci('required')));
    const preferred = passes(host, pinnedSpec(2, pci('preferred')));
    // Assess
    expect([required, preferred]).toEqual([false, true]);
  });

  it('limits shared CPUs with the allocation ratio in force', () => {
    // Prepare: 4 shared CPUs with 6 in use; the guest wants 4 more
    const host = numaHost([cell(0, { cpuset: [0, 1, 2, 3], pcpuset: [], siblings: [], cpu_usage: 6 })], {
      cpu_allocation_ratio: 2,
    });
    const spec = makeSpec({ numa_topology: { cells: [{ id: 0, cpuset: [0, 1, 2, 3], memory: 512 }] } });
    // Act
    const hostRatio = passes(host, spec);
    const configRatio = passes(
      { ...host, cpu_allocation_ratio: null },
      spec,
      makeConfig({ DEFAULT: { cpu_allocation_ratio: 3 } }),
    );
    const bothRatios = passes(host, spec, makeConfig({ DEFAULT: { cpu_allocation_ratio: 3 } }));
    // Assess: the reported ratio wins; the config's only fills in for a host that reports none
    expect([hostRatio, configRatio, bothRatios]).toEqual([false, true, false]);
  });

  it('does not change the host it checks', () => {
    // Prepare
    const host = numaHost([cell(0)]);
    const before = structuredClone(host);
    // Act
    passes(host, pinnedSpec(2));
    // Assess
    expect(host).toEqual(before);
  });

  it.each([
    [
      'the missing hyper-threads',
      numaHost([cell(0)]),
      makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs: requireThreads } }),
      'the request wants dedicated CPUs on thread siblings (cpu_thread_policy=require) but no NUMA cell of h1 has hyper-threads',
    ],
    [
      'the missing host topology',
      makeHost({ host: 'h1' }),
      pinnedSpec(1),
      'the request has a 1-cell NUMA topology but h1 reports no NUMA topology',
    ],
    [
      'the cell that is short',
      numaHost([cell(0, { pinned_cpus: [0, 1] })]),
      pinnedSpec(4),
      'the guest NUMA topology does not fit h1: guest cell 0 needs 4 dedicated CPUs; host cell 0 has 2 free',
    ],
  ])('explains %s', (_case, host, spec, expected) => {
    // Act
    const why = explain(host, spec);
    // Assess
    expect(why).toBe(expected);
  });
});
