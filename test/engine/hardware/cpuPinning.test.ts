import { describe, expect, it } from 'vitest';
import { packOntoCores } from '../../../lib/engine/hardware/cpuPinning.js';
import type { NumaCell } from '../../../lib/model/hostState.js';
import { fitInstanceToHost, guest, host, pinnedGuestCell, pinningCell } from './topology.js';

type Policy = 'prefer' | 'isolate' | 'require' | null;

/** 8 dedicated CPUs in 4 hyper-threaded cores: [0,1] [2,3] [4,5] [6,7]. */
const smt = (over: Partial<NumaCell> = {}) => pinningCell(0, 0, 8, 2, over);
/** 4 dedicated CPUs, no hyper-threads. */
const noSmt = (over: Partial<NumaCell> = {}) => pinningCell(0, 0, 4, 1, over);

function pins(cell: NumaCell, n: number, policy: Policy): number[] | null {
  return packOntoCores(cell, pinnedGuestCell(0, n, { cpu_thread_policy: policy }));
}

describe('packOntoCores', () => {
  it.each([
    ['prefer packs onto whole cores', smt(), 4, 'prefer', [0, 1, 2, 3]],
    ['no policy behaves like prefer', smt(), 3, null, [0, 1, 2]],
    ['prefer skips half-used cores while whole ones remain', smt({ pinned_cpus: [0] }), 2, 'prefer', [2, 3]],
    ['prefer falls back to lone threads', smt({ pinned_cpus: [0, 2, 4, 6] }), 3, 'prefer', [1, 3, 5]],
    ['require pins on sibling threads', smt({ pinned_cpus: [0] }), 4, 'require', [2, 3, 4, 5]],
    ['require refuses lone threads', smt({ pinned_cpus: [0, 2, 4, 6] }), 2, 'require', null],
    ['require refuses a host without hyper-threads', noSmt(), 2, 'require', null],
    [
      'isolate takes one CPU per free core on a host without hyper-threads',
      noSmt({ pinned_cpus: [1] }),
      2,
      'isolate',
      [0, 2],
    ],
    [
      'isolate refuses a hyper-threaded host with separate dedicated and shared sets',
      smt({ cpuset: [8] }),
      1,
      'isolate',
      null,
    ],
    [
      'isolate uses one thread of each free core on a legacy hyper-threaded host',
      smt({ cpuset: [0, 1, 2, 3, 4, 5, 6, 7] }),
      2,
      'isolate',
      [0, 2],
    ],
    [
      'isolate needs enough fully free cores',
      smt({ cpuset: [0, 1, 2, 3, 4, 5, 6, 7], pinned_cpus: [0, 2, 4] }),
      2,
      'isolate',
      null,
    ],
  ] as const)('%s', (_case, cell, n, policy, expected) => {
    // Act
    const out = pins(cell, n, policy);
    // Assess
    expect(out).toEqual(expected);
  });

  it('treats dedicated CPUs missing from the sibling sets as cores of their own', () => {
    // Prepare
    const cell = noSmt({ siblings: [] });
    // Act
    const out = pins(cell, 4, 'isolate');
    // Assess
    expect(out).toEqual([0, 1, 2, 3]);
  });

  it('never pins shared CPUs that share a core with dedicated ones', () => {
    // Prepare: core [0,1] has shared CPU 1
    const cell = pinningCell(0, 0, 1, 1, {
      cpuset: [1],
      pcpuset: [0, 2, 3],
      siblings: [
        [0, 1],
        [2, 3],
      ],
    });
    // Act
    const out = pins(cell, 3, 'prefer');
    // Assess
    expect(out).toEqual([0, 2, 3]);
  });
});

describe('pinning usage', () => {
  it.each([
    ['isolate pins the whole core of each CPU on a legacy host', 'isolate', [0, 1, 2, 3]],
    ['prefer pins only the CPUs used', 'prefer', [0, 1]],
  ] as const)('%s', (_case, policy, expected) => {
    // Prepare
    const h = host(smt({ cpuset: [0, 1, 2, 3, 4, 5, 6, 7] }));
    // Act
    const after = fitInstanceToHost(h, guest(pinnedGuestCell(0, 2, { cpu_thread_policy: policy })), null);
    // Assess
    expect(after?.cells[0].pinned_cpus).toEqual(expected);
  });
});
