import { describe, expect, it } from 'vitest';
import { explainNoFit, type NumaLimits, placeInstance } from '../../../lib/engine/hardware/numa.js';
import type { NumaCell } from '../../../lib/model/hostState.js';
import type { InstanceNumaCell } from '../../../lib/model/requestSpec.js';
import {
  fitInstanceToHost,
  frozen,
  guest,
  guestCell,
  host,
  hostCell,
  pciRequest,
  pinnedGuestCell,
  pinningCell,
  pool,
} from './topology.js';

const ratios = (cpu: number, ram: number): NumaLimits => ({
  cpu_allocation_ratio: cpu,
  ram_allocation_ratio: ram,
});
const pages = (size_kb: number, total: number, used = 0) => ({ size_kb, total, used });
/** 1 GiB of 4 KiB pages. */
const GIB_OF_4K = 262144;

/** Whether one guest cell fits one host cell. */
function fits(hostC: NumaCell, guestC: InstanceNumaCell, limits: NumaLimits | null = null): boolean {
  return placeInstance(host(hostC), guest(guestC), limits) !== null;
}

describe('numa fit: memory of one cell', () => {
  it.each([
    [
      'a shared cell up to the host cell memory, usage ignored without limits',
      { memory_usage: 4000 },
      4096,
      null,
      true,
    ],
    ['no shared cell larger than the host cell, whatever the ratio', {}, 4097, ratios(16, 4), false],
    ['a shared cell within memory × ram ratio', { memory_usage: 3072 }, 2048, ratios(16, 1.5), true],
    ['no shared cell beyond memory × ram ratio', { memory_usage: 3072 }, 2048, ratios(16, 1), false],
  ])('fits %s', (_case, over, memory, limits, expected) => {
    // Prepare
    const h = hostCell(0, over);
    // Act
    const ok = fits(h, guestCell(0, { memory }), limits);
    // Assess
    expect(ok).toBe(expected);
  });

  it.each([
    [
      'a pinned cell without page pools against free memory',
      pinnedGuestCell(0, 1, { memory: 2048 }),
      {},
      false,
    ],
    ['a shared cell without page pools against total memory', guestCell(0, { memory: 2048 }), {}, true],
    [
      'a pinned cell against free small pages',
      pinnedGuestCell(0, 1, { memory: 2048 }),
      { mempages: [pages(4, 4 * GIB_OF_4K, 3 * GIB_OF_4K)] },
      false,
    ],
    [
      'a shared cell against all small pages',
      guestCell(0, { memory: 2048 }),
      { mempages: [pages(4, 4 * GIB_OF_4K, 3 * GIB_OF_4K)] },
      true,
    ],
  ])('measures %s', (_case, g, over, expected) => {
    // Prepare: 3 of 4 GiB in use; no limits, so only the cell check itself decides
    const h = pinningCell(0, 0, 4, 1, { cpuset: [4, 5], memory_usage: 3072, ...over });
    // Act
    const ok = fits(h, g);
    // Assess
    expect(ok).toBe(expected);
  });

  it('a shared cell may overcommit small pages (their total counts, not their free count)', () => {
    // Prepare
    const h = hostCell(0, { mempages: [pages(4, GIB_OF_4K, GIB_OF_4K)] });
    // Act
    const ok = fits(h, guestCell(0, { memory: 1024 }));
    // Assess
    expect(ok).toBe(true);
  });

  it.each([
    ['enough free pages of the requested size', 2048, 1024, true],
    ['too few free pages of the requested size', 2048, 1536, false],
    ['a size the host cell does not have', 16, 1024, false],
    ['memory that is not a whole number of pages', 1048576, 1536, false],
    ['whole 1 GiB pages', 1048576, 2048, true],
  ])('a requested page size fits with %s', (_case, pagesize, memory, expected) => {
    // Prepare: 1 GiB of 2 MiB pages free, 2 GiB of 1 GiB pages free
    const h = hostCell(0, {
      mempages: [pages(4, GIB_OF_4K), pages(2048, 1024, 512), pages(1048576, 2)],
    });
    // Act
    const ok = fits(h, guestCell(0, { memory, pagesize }));
    // Assess
    expect(ok).toBe(expected);
  });

  it('a "large" page request takes the largest huge page size with room', () => {
    // Prepare: the 1 GiB pages are all used, the 2 MiB ones are free
    const h = host(hostCell(0, { mempages: [pages(4, GIB_OF_4K), pages(2048, 1024), pages(1048576, 2, 2)] }));
    // Act
    const after = fitInstanceToHost(h, guest(guestCell(0, { memory: 1024, pagesize: -2 })), null);
    // Assess
    expect(after?.cells[0].mempages.map((p) => p.used)).toEqual([0, 512, 2]);
  });
});

describe('numa fit: CPUs of one cell', () => {
  it.each([
    ['no shared cell with more CPUs than the host cell, whatever the ratio', {}, 5, ratios(16, 1), false],
    ['a shared cell within CPUs × cpu ratio', { cpu_usage: 6 }, 2, ratios(2, 1), true],
    ['no shared cell beyond CPUs × cpu ratio', { cpu_usage: 6 }, 3, ratios(2, 1), false],
    ['a shared cell beyond the ratio when there are no limits', { cpu_usage: 60 }, 3, null, true],
  ])('fits %s', (_case, over, n, limits, expected) => {
    // Prepare
    const h = hostCell(0, over);
    // Act
    const ok = fits(h, guestCell(0, { cpuset: Array.from({ length: n }, (_, i) => i) }), limits);
    // Assess
    expect(ok).toBe(expected);
  });

  it.each([
    ['as many dedicated CPUs as are free', [0, 1], 2, true],
    ['more dedicated CPUs than are free', [0, 1, 2], 2, false],
    ['more dedicated CPUs than the cell has', [], 5, false],
  ])('fits %s', (_case, pinned, n, expected) => {
    // Prepare
    const h = pinningCell(0, 0, 4, 1, { pinned_cpus: pinned });
    // Act
    const ok = fits(h, pinnedGuestCell(0, n), ratios(16, 16));
    // Assess
    expect(ok).toBe(expected);
  });

  it('ignores the cpu ratio for dedicated CPUs', () => {
    // Prepare: a cell whose shared CPUs are all over their limit
    const h = pinningCell(0, 0, 4, 1, { cpuset: [8, 9], cpu_usage: 100 });
    // Act
    const ok = fits(h, pinnedGuestCell(0, 4), ratios(1, 1));
    // Assess
    expect(ok).toBe(true);
  });
});

describe('numa fit: several cells', () => {
  it('needs at least as many host cells as guest cells', () => {
    // Act
    const out = placeInstance(host(hostCell(0)), guest(guestCell(0), guestCell(1)), null);
    // Assess
    expect(out).toBeNull();
  });

  it('tries other permutations when the first one does not fit', () => {
    // Prepare: guest cell 0 (3 GiB) fits only host cell 1
    const h = host(hostCell(0, { memory: 2048 }), hostCell(1));
    // Act
    const out = placeInstance(h, guest(guestCell(0, { memory: 3072 }), guestCell(1)), null);
    // Assess
    expect(out?.map((f) => f.hostCellId)).toEqual([1, 0]);
  });

  it('fails when two guest cells fit only the same host cell', () => {
    // Prepare
    const h = host(hostCell(0), hostCell(1, { memory: 512 }));
    // Act
    const out = placeInstance(h, guest(guestCell(0), guestCell(1)), null);
    // Assess
    expect(out).toBeNull();
  });

  it.each([
    ['spread prefers the cell with more free memory', 'spread', { memory_usage: 2048 }, {}, 1],
    ['pack prefers the cell with less free memory', 'pack', { memory_usage: 2048 }, {}, 0],
    [
      'spread ranks shared CPU usage above free memory',
      'spread',
      { cpu_usage: 2 },
      { memory_usage: 1024 },
      1,
    ],
  ] as const)('%s', (_case, packing, cell0, cell1, expected) => {
    // Prepare
    const h = host(hostCell(0, cell0), hostCell(1, cell1));
    // Act
    const out = placeInstance(h, guest(guestCell(0)), null, [], null, packing);
    // Assess
    expect(out?.[0].hostCellId).toBe(expected);
  });

  it('spreads pinned guests onto the cell with more free dedicated CPUs', () => {
    // Prepare
    const h = host(pinningCell(0, 0, 4, 1, { pinned_cpus: [0] }), pinningCell(1, 4, 4));
    // Act
    const out = placeInstance(h, guest(pinnedGuestCell(0, 1)), null);
    // Assess
    expect(out?.[0]).toEqual({ hostCellId: 1, pagesize: 0, pinned: [4] });
  });

  it.each([
    [
      'puts cells with PCI devices first when PCI is requested',
      [pciRequest()],
      { memory_usage: 1024 },
      {},
      1,
    ],
    ['puts cells with PCI devices last when PCI is not requested', [], {}, { memory_usage: 1024 }, 0],
  ])('%s', (_case, requests, cell1, cell0, expected) => {
    // Prepare: free memory alone would pick the other cell
    const h = host(hostCell(0, cell0), hostCell(1, cell1));
    const stats = { pools: [pool({ numa_node: 1, count: 2 })] };
    // Act
    const out = placeInstance(h, guest(guestCell(0)), null, requests, stats);
    // Assess
    expect(out?.[0].hostCellId).toBe(expected);
  });

  it('keeps looking until the PCI requests fit the chosen cells (numa_policy required)', () => {
    // Prepare: cell 0 comes first (most devices) but its devices do not match; the match is on cell 2
    const h = host(hostCell(0), hostCell(1), hostCell(2));
    const stats = { pools: [pool({ numa_node: 0, product_id: 'other', count: 5 }), pool({ numa_node: 2 })] };
    // Act
    const out = placeInstance(h, guest(guestCell(0)), null, [pciRequest({ numa_policy: 'required' })], stats);
    // Assess
    expect(out?.[0].hostCellId).toBe(2);
  });

  it('fails when no choice of cells satisfies the PCI NUMA policy', () => {
    // Prepare
    const h = host(hostCell(0), hostCell(1));
    const stats = { pools: [pool({ numa_node: 7 })] };
    // Act
    const out = placeInstance(h, guest(guestCell(0)), null, [pciRequest({ numa_policy: 'required' })], stats);
    // Assess
    expect(out).toBeNull();
  });
});

describe('numa fit: usage', () => {
  it('adds memory, shared CPUs and pages to the chosen cell only, without changing the input', () => {
    // Prepare
    const h = frozen(
      host(hostCell(0, { memory_usage: 1024 }), hostCell(1, { mempages: [pages(4, GIB_OF_4K)] })),
    );
    // Act
    const after = fitInstanceToHost(h, guest(guestCell(0, { memory: 512 })), ratios(1, 1));
    // Assess
    expect(after?.cells[0]).toBe(h.cells[0]);
    expect(after?.cells[1]).toMatchObject({
      memory_usage: 512,
      cpu_usage: 2,
      mempages: [pages(4, GIB_OF_4K, 131072)],
    });
  });

  it('adds the pinned CPUs of a mixed cell and counts its shared CPUs', () => {
    // Prepare
    const h = host(pinningCell(0, 0, 4, 1, { cpuset: [8, 9, 10, 11], pinned_cpus: [0] }));
    const mixed = guestCell(0, { cpuset: [0], pcpuset: [1, 2] });
    // Act
    const after = fitInstanceToHost(h, guest(mixed), ratios(1, 1));
    // Assess
    expect(after?.cells[0]).toMatchObject({ pinned_cpus: [0, 1, 2], cpu_usage: 1, memory_usage: 1024 });
  });

  it('returns null and leaves nothing changed when the guest does not fit', () => {
    // Prepare
    const h = frozen(host(hostCell(0, { memory: 512 })));
    // Act
    const after = fitInstanceToHost(h, guest(guestCell(0)), null);
    // Assess
    expect(after).toBeNull();
  });
});

describe('numa fit: explanations', () => {
  it.each([
    [
      'too few host cells',
      host(hostCell(0)),
      guest(guestCell(0), guestCell(1)),
      'guest needs 2 NUMA cells; host has 1',
    ],
    [
      'too few free dedicated CPUs, for every host cell',
      host(pinningCell(0, 0, 4, 1, { pinned_cpus: [0, 1] }), pinningCell(1, 4, 4, 1, { pinned_cpus: [4] })),
      guest(pinnedGuestCell(0, 4)),
      'guest cell 0 needs 4 dedicated CPUs; host cell 0 has 2 free, host cell 1 has 3 free',
    ],
    [
      'different shortfalls on different host cells',
      host(hostCell(0, { memory: 512 }), hostCell(1, { cpuset: [4] })),
      guest(guestCell(0)),
      'guest cell 0 needs 1024 MiB; host cell 0 has 512 MiB in total. guest cell 0 needs 2 shared CPUs; host cell 1 has 1 in total',
    ],
    [
      'guest cells that need the same host cell',
      host(hostCell(0), hostCell(1, { memory: 512 })),
      guest(guestCell(0), guestCell(1)),
      'each guest cell needs its own host cell, but guest cell 0 fits host cell(s) 0; guest cell 1 fits host cell(s) 0',
    ],
  ])('names the cells for %s', (_case, h, g, expected) => {
    // Act
    const why = explainNoFit(h, g, null);
    // Assess
    expect(why).toBe(expected);
  });

  it('names the PCI request that no placement satisfies', () => {
    // Prepare
    const stats = { pools: [pool({ numa_node: 1 })] };
    // Act
    const why = explainNoFit(
      host(hostCell(0), hostCell(1, { memory: 512 })),
      guest(guestCell(0)),
      null,
      [pciRequest({ numa_policy: 'required' })],
      stats,
    );
    // Assess
    expect(why).toContain('PCI request 0 needs 1 device(s) matching vendor_id=8086 product_id=1520');
    expect(why).toContain('on NUMA node(s) 0 (numa_policy required)');
  });

  it('is null when the guest fits', () => {
    // Act
    const why = explainNoFit(host(hostCell(0)), guest(guestCell(0)), null);
    // Assess
    expect(why).toBeNull();
  });
});

describe('numa fit: search cap', () => {
  const unsatisfiable = [pciRequest({ numa_policy: 'required' })];
  const stats = { pools: [pool({ numa_node: 99 })] };
  const many = (n: number) => Array.from({ length: n }, (_, i) => hostCell(i, { cpuset: [i] }));
  const guests = (n: number) => Array.from({ length: n }, (_, i) => guestCell(i, { cpuset: [i], memory: 1 }));

  it('tries every permutation of 8 guest cells on 8 host cells', () => {
    // Act
    const why = explainNoFit(host(...many(8)), guest(...guests(8)), null, unsatisfiable, stats);
    // Assess
    expect(why).toContain('no placement of the guest cells leaves the PCI requests satisfiable');
  });

  it('gives up on larger searches and says so', () => {
    // Act
    const why = explainNoFit(host(...many(9)), guest(...guests(9)), null, unsatisfiable, stats);
    // Assess
    expect(why).toBe("gave up after 110000 tries of guest cells on the host's 9 cells");
  });
});
