import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRECOPY_ROUNDS, migrationCost, migrationRateMbps } from '../../lib/rebalance/cost.js';
import { settingsWith } from './fixtures.js';

const GIB = 2 ** 30;
const SETTINGS = settingsWith();
const vm = (
  memoryGib: number,
  rootGb: number,
  shared = false,
  extra: { ephemeral_gb?: number; swap?: number } = {},
) => ({
  flavor: { memory_mb: memoryGib * 1024, root_gb: rootGb, ...extra },
  shared_storage: shared,
});

describe('migrationCost: bytes', () => {
  it.each([
    ['RAM only on shared storage', vm(8, 40, true), 8 * GIB, 'none'],
    [
      'RAM plus root, ephemeral and swap on local disk',
      vm(8, 40, false, { ephemeral_gb: 20, swap: 2048 }),
      70 * GIB,
      'allowed',
    ],
    ['RAM only for a boot-from-volume VM (no local root)', vm(4, 0), 4 * GIB, 'none'],
  ])('counts %s', (_case, input, bytes, block) => {
    // Act
    const cost = migrationCost(input, SETTINGS);
    // Assess
    expect(cost.bytes).toBe(bytes);
    expect(cost.block).toBe(block);
  });
});

describe('migrationCost: duration', () => {
  it('copies the disk first, then memory in pre-copy rounds until the rest fits the pause', () => {
    // Prepare: 2,500 Mbit/s = 312.5 MB/s; dirty 200 Mbit/s = 25 MB/s.
    const rate = 312.5e6;
    const round1 = (8 * GIB) / rate;
    const round2 = (25e6 * round1) / rate;
    const pause = (25e6 * round2) / rate;
    // Act
    const cost = migrationCost(vm(8, 40), SETTINGS);
    // Assess
    expect(cost.precopyRounds).toBe(2);
    expect(cost.converges).toBe(true);
    expect(cost.downtimeMs).toBeCloseTo(pause * 1000, 6);
    expect(cost.seconds).toBeCloseTo((40 * GIB) / rate + round1 + round2 + pause, 6);
    expect(cost.reason).toBe(
      '8.0 GiB RAM + 40.0 GiB local disk at 2,500 Mbit/s: disk copy 137 s, memory 2 pre-copy round(s) + 176 ms pause; ≈ 167 s',
    );
  });

  it.each([
    ['its own limit when the link is free', 1, 2500],
    ['a share of the link when many migrations use it', 8, 1250],
  ])('runs at %s', (_case, concurrent, rate) => {
    // Act / Assess
    expect(migrationRateMbps(SETTINGS, concurrent)).toBe(rate);
    expect(migrationCost(vm(1, 0), SETTINGS, { concurrentOnLink: concurrent }).rateMbps).toBe(rate);
  });

  it('marks a VM dirtying memory faster than the link can send as non-converging', () => {
    // Act
    const cost = migrationCost(vm(8, 0), SETTINGS, { dirtyRateMbps: 3000 });
    // Assess
    expect(cost.converges).toBe(false);
    expect(cost.downtimeMs).toBeGreaterThan(500);
    expect(cost.reason).toContain(
      'memory pre-copy does not converge (dirty rate 3,000 Mbit/s >= migration rate, limit 500 ms)',
    );
  });

  it('gives up after the round limit when the dirty rate is just below the rate', () => {
    // Act
    const cost = migrationCost(vm(64, 0), SETTINGS, { dirtyRateMbps: 2450 });
    // Assess
    expect(cost.converges).toBe(false);
    expect(cost.precopyRounds).toBe(MAX_PRECOPY_ROUNDS);
  });

  it('never sends less than RAM + disk, nor faster than the rate; converging means a short pause (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 512 }),
        fc.integer({ min: 0, max: 500 }),
        fc.boolean(),
        fc.double({ min: 0, max: 5000, noNaN: true }),
        (memoryGib, rootGb, shared, dirty) => {
          // Act
          const cost = migrationCost(vm(memoryGib, rootGb, shared), SETTINGS, { dirtyRateMbps: dirty });
          // Assess
          expect(cost.transferBytes).toBeGreaterThanOrEqual(cost.bytes);
          expect(cost.seconds).toBeGreaterThanOrEqual((cost.bytes * 8) / (cost.rateMbps * 1e6) - 1e-9);
          if (cost.converges) expect(cost.downtimeMs).toBeLessThanOrEqual(SETTINGS.max_downtime_ms + 1e-9);
        },
      ),
    );
  });
});

describe('migrationCost: block migration limit', () => {
  it.each([
    ['refuses a 500 GB disk in recommend mode', 'recommend', 500, 'refused'],
    ['refuses a 500 GB disk in auto mode', 'auto', 500, 'refused'],
    ['leaves a 500 GB disk to the operator in approve mode', 'approve', 500, 'needs_approval'],
    ['allows a disk of exactly the limit', 'auto', 100, 'allowed'],
  ] as const)('%s', (_case, mode, rootGb, block) => {
    // Act
    const cost = migrationCost(vm(8, rootGb), settingsWith({ mode }));
    // Assess
    expect(cost.block).toBe(block);
  });

  it('explains a refusal with the size and the option', () => {
    // Act
    const cost = migrationCost(vm(8, 500), SETTINGS);
    // Assess
    expect(cost.reason).toContain('block migration of 500.0 GiB exceeds max_block_migration_gb 100: refused');
  });
});
