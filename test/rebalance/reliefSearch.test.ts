import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../lib/rebalance/candidates.js';
import { cheapestCover, SearchBudget } from '../../lib/rebalance/coverSearch.js';
import { hostLowerBound } from '../../lib/rebalance/lowerBound.js';
import { cheapestRelief } from '../../lib/rebalance/reliefSet.js';
import { excessDemand } from '../../lib/rebalance/stealModel.js';
import type { VmDetection } from '../../lib/rebalance/types.js';

const GIB = 2 ** 30;
const item = (demandVcpus: number, bytes: number) => ({ demandVcpus, bytes });

/** A candidate with `demand` vCPUs of demand and `gib` GiB to move. */
function candidate(uuid: string, demand: number, gib: number): Candidate {
  return {
    vm: { uuid } as Candidate['vm'],
    detection: { uuid } as VmDetection,
    demandVcpus: demand,
    stealPercent: 20,
    share: { demandVcpus: demand, vcpus: 4, lostPercent: 20 },
    suffering: true,
    cost: { bytes: gib * GIB } as Candidate['cost'],
  };
}

describe('cheapestCover', () => {
  it('finds the cheapest set where the greedy by relief per byte does not', () => {
    // Prepare: per byte the first (3 vCPUs for 3) looks best, but then another must follow (5.1).
    const items = [item(3, 3), item(2, 2.1), item(2, 2.1)];
    // Act
    const cover = cheapestCover(items, 4, 'sure');
    // Assess
    expect(cover).toEqual({ bytes: 4.2, picks: [1, 2] });
  });

  it('prefers one big cheap VM to several small dear ones', () => {
    // Act
    const cover = cheapestCover([item(1, 5), item(1, 5), item(4, 6)], 2, 'sure');
    // Assess
    expect(cover).toEqual({ bytes: 6, picks: [2] });
  });

  it('is undefined when the whole pool cannot cover, and empty when nothing is needed', () => {
    // Act / Assess
    expect(cheapestCover([item(1, 4)], 2, 'sure')).toBeUndefined();
    expect(cheapestCover([item(1, 4)], 0, 'sure')).toEqual({ bytes: 0, picks: [] });
  });

  it('rounds so a sure set really covers and a bound never exceeds the true minimum', () => {
    // Prepare: 1.02 vCPUs are needed; 'a' has 1.01 (51/50 rounded down to 20 steps), 'b' 1.5.
    const items = [item(1.01, 1), item(1.5, 10)];
    // Act
    const sure = cheapestCover(items, 1.02, 'sure');
    const bound = cheapestCover(items, 1.02, 'bound');
    // Assess: only 'b' truly covers; the bound may count 'a' (it never overshoots the truth).
    expect(sure).toEqual({ bytes: 10, picks: [1] });
    expect(bound).toEqual({ bytes: 1, picks: [] });
  });

  it('gives up when the search budget has no room, leaving it untouched', () => {
    // Prepare: 3 items × 40 steps = 120 cells.
    const budget = new SearchBudget(100);
    // Act
    const cover = cheapestCover([item(1, 1), item(1, 1), item(1, 1)], 2, 'sure', budget);
    // Assess
    expect(cover).toBe('over_budget');
    expect(budget.used).toBe(0);
  });
});

describe('cheapestRelief', () => {
  const load = { capacityVcpus: 16, demandVcpus: 20 };
  const excessFor = (target: number) => excessDemand(load, Math.max(0, target));

  it('moves the worst victim itself when that is cheaper than what the others would need gone', () => {
    // Prepare: 'worst' recovers only below 1 %, the other below 4 %; moving 'worst' (2 vCPUs)
    // leaves the need of the 4 % target: 20 - 16/0.96 - 2 ≈ 1.33, which 'small' covers.
    const worst = item(2, 4);
    const other = item(1, 4);
    const small = item(1.5, 2);
    // Act
    const set = cheapestRelief(
      {
        victims: [
          { target: 4, candidate: other },
          { target: 1, candidate: worst },
        ],
        pool: [worst, other, small],
        excessFor,
      },
      'sure',
    );
    // Assess: the alternative, covering 20 - 16/0.99 ≈ 3.84 vCPUs with the pool, costs 10.
    expect(set).toEqual({ bytes: 6, worst: [worst], cover: [small] });
  });

  it('stops at a victim that cannot move: its target binds', () => {
    // Prepare
    const big = item(5, 8);
    // Act
    const set = cheapestRelief(
      { victims: [{ target: 1, candidate: undefined }], pool: [big], excessFor },
      'sure',
    );
    // Assess
    expect(set).toEqual({ bytes: 8, worst: [], cover: [big] });
  });

  it('is undefined when no set relieves every victim', () => {
    // Act
    const set = cheapestRelief(
      { victims: [{ target: 1, candidate: undefined }], pool: [item(1, 1)], excessFor },
      'sure',
    );
    // Assess
    expect(set).toBeUndefined();
  });
});

describe('hostLowerBound', () => {
  const load = { capacityVcpus: 16, demandVcpus: 20 };

  it('adds the VMs only their own move helps to the cheapest relief of the others', () => {
    // Prepare: 'own' leaves 2 vCPUs, so 20 - 2 - 16/0.95 ≈ 1.16 more must leave: 'a' (3 vCPUs).
    const own = candidate('own', 2, 4);
    const a = candidate('a', 3, 8);
    // Act
    const bound = hostLowerBound(
      load,
      [{ uuid: 'own', target: 0, candidate: own }],
      [{ uuid: 'a', target: 5, candidate: a }],
      [a],
    );
    // Assess
    expect(bound).toEqual({ bytes: 12 * GIB, covers: ['own', 'a'] });
  });

  it('leaves out a VM only its own move helps that cannot move', () => {
    // Act
    const bound = hostLowerBound(load, [{ uuid: 'stuck', target: 0, candidate: undefined }], [], []);
    // Assess
    expect(bound).toEqual({ bytes: 0, covers: [] });
  });

  it('covers nothing when no set of moves relieves every victim', () => {
    // Prepare
    const a = candidate('a', 1, 8);
    // Act
    const bound = hostLowerBound(
      load,
      [],
      [
        { uuid: 'a', target: 5, candidate: a },
        { uuid: 'stuck', target: 2, candidate: undefined },
      ],
      [a],
    );
    // Assess
    expect(bound).toBeNull();
  });
});
