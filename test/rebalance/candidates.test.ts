import { describe, expect, it } from 'vitest';
import { type Candidate, ineligibility, selectForRelief } from '../../lib/rebalance/candidates.js';
import type { Cooldown } from '../../lib/rebalance/cooldown.js';
import { migrationCost } from '../../lib/rebalance/cost.js';
import type { VmDetection } from '../../lib/rebalance/types.js';
import { settingsWith } from './fixtures.js';

const GIB = 2 ** 30;

/** A candidate with `demand` vCPUs of demand and `gib` GiB to move. */
function candidate(uuid: string, demand: number, gib: number, suffering = true): Candidate {
  return {
    vm: { uuid } as Candidate['vm'],
    detection: { uuid } as VmDetection,
    demandVcpus: demand,
    stealPercent: 20,
    share: { demandVcpus: demand, vcpus: 4, lostPercent: 20 },
    suffering,
    cost: { bytes: gib * GIB } as Candidate['cost'],
  };
}

const uuids = (cs: Candidate[]) => cs.map((c) => c.vm.uuid);

describe('selectForRelief', () => {
  it.each([
    ['nothing when nothing must leave', [candidate('a', 2, 8)], 0, []],
    [
      'the cheapest VM that covers alone',
      [candidate('big', 4, 16), candidate('fit', 3, 8), candidate('tiny', 1, 2)],
      2.5,
      ['fit'],
    ],
    [
      'most relief per byte first, then what finishes',
      [candidate('a', 2, 2), candidate('b', 2, 2), candidate('c', 4, 32)],
      3.5,
      ['a', 'b'],
    ],
    [
      'every candidate when even all cannot cover',
      [candidate('a', 1, 8), candidate('b', 1, 4)],
      5,
      ['b', 'a'],
    ],
  ])('takes %s', (_case, pool, excess, expected) => {
    // Act
    const picks = selectForRelief(pool, excess);
    // Assess
    expect(uuids(picks)).toEqual(expected);
  });

  it('prunes a pick the later picks made unnecessary', () => {
    // Prepare: 'a' has the best ratio but 'b' alone then covers; 'a' is dropped.
    const pool = [candidate('a', 1, 0.5), candidate('b', 3, 2)];
    // Act
    const picks = selectForRelief(pool, 3);
    // Assess
    expect(uuids(picks)).toEqual(['b']);
  });

  it('caps relief at what is needed, so a big VM does not look cheap for relief nobody needs', () => {
    // Prepare: per byte, 'big' gives 8/16 uncapped but only 1/16 of the 1 vCPU needed.
    const pool = [candidate('big', 8, 16), candidate('small', 1, 4)];
    // Act
    const picks = selectForRelief(pool, 1);
    // Assess
    expect(uuids(picks)).toEqual(['small']);
  });
});

describe('ineligibility', () => {
  const detection = { uuid: 'vm', demandVcpus: 2, steal: { mean: 20 }, reason: 'suffering' } as VmDetection;
  const free: Cooldown = { coolingDown: false, moves: 0, cooldownHours: 0, until: null, reason: '' };
  const cost = (shared: boolean, settings = settingsWith()) =>
    migrationCost({ flavor: { memory_mb: 4096, root_gb: 200 }, shared_storage: shared }, settings);

  it.each([
    ['no demand data', { ...detection, demandVcpus: null }, free, cost(true), 'no_data'],
    ['a cooldown', detection, { ...free, coolingDown: true, reason: 'cooldown: …' }, cost(true), 'cooldown'],
    ['a refused block migration', detection, free, cost(false), 'block_migration_too_large'],
    [
      'a pre-copy that cannot converge',
      detection,
      free,
      migrationCost(
        { flavor: { memory_mb: 4096, root_gb: 0 }, shared_storage: true },
        settingsWith({ dirty_rate_mbps: 5000 }),
      ),
      'not_converging',
    ],
  ])('refuses %s', (_case, d, cooldown, c, code) => {
    // Act
    const skip = ineligibility(d as VmDetection, c, cooldown);
    // Assess
    expect(skip?.code).toBe(code);
  });

  it('lets a VM with data, no cooldown and an acceptable cost move', () => {
    // Act
    const skip = ineligibility(detection, cost(true), free);
    // Assess
    expect(skip).toBeUndefined();
  });
});
