import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  demandVcpus,
  effectiveCapacity,
  excessDemand,
  moveEffect,
  predictedStealPercent,
  stealAfterAdding,
  stealAfterRemoving,
} from '../../lib/rebalance/stealModel.js';

const load = fc.double({ min: 0, max: 1000, noNaN: true });

describe('predictedStealPercent', () => {
  it.each([
    ['no steal while demand fits', 12, 16, 0],
    ['no steal at exactly full capacity', 16, 16, 0],
    ['the shortfall shared by all: 1 - 16/20', 20, 16, 20],
    ['half lost when demand is twice capacity', 32, 16, 50],
    ['nothing to lose without demand', 0, 16, 0],
    ['everything lost without capacity', 4, 0, 100],
  ])('gives %s', (_case, demand, capacity, steal) => {
    // Act / Assess
    expect(predictedStealPercent(demand, capacity)).toBeCloseTo(steal, 9);
  });

  it('never decreases as demand grows (property)', () => {
    fc.assert(
      fc.property(load, load, load, (a, b, capacity) => {
        // Act / Assess
        expect(predictedStealPercent(Math.min(a, b), capacity)).toBeLessThanOrEqual(
          predictedStealPercent(Math.max(a, b), capacity),
        );
      }),
    );
  });

  it('never increases as capacity grows and stays within 0..100 (property)', () => {
    fc.assert(
      fc.property(load, load, load, (demand, c1, c2) => {
        // Act
        const more = predictedStealPercent(demand, Math.max(c1, c2));
        const less = predictedStealPercent(demand, Math.min(c1, c2));
        // Assess
        expect(more).toBeLessThanOrEqual(less);
        expect(more).toBeGreaterThanOrEqual(0);
        expect(less).toBeLessThanOrEqual(100);
      }),
    );
  });
});

describe('demand and capacity', () => {
  it.each([
    ['used plus stolen', 60, 20, 4, 3.2],
    ['capped at the vCPU count', 90, 30, 2, 2],
  ])('a VM demand is %s', (_case, cpu, steal, vcpus, demand) => {
    // Act / Assess
    expect(demandVcpus(cpu, steal, vcpus)).toBeCloseTo(demand, 9);
  });

  it.each([
    ['calibrates from measurable steal: what the host delivered', 40, 20, 32, 32],
    ['calibrates from steal near saturation (90 % of vcpus_total)', 30, 2, 32, 29.4],
    ['trusts vcpus_total when steal is noise', 20, 0.5, 32, 32],
    ['ignores housekeeping steal on a host far from saturation', 10, 2, 32, 32],
    ['ignores measurable steal just below saturation', 28, 10, 32, 32],
    ['knows capacity covers the demand it served without steal', 40, 0, 32, 40],
    ['falls back to the demand when vcpus_total is unknown', 10, 0, 0, 10],
  ])('effective capacity %s', (_case, demand, steal, total, capacity) => {
    // Act / Assess
    expect(effectiveCapacity(demand, steal, total)).toBeCloseTo(capacity, 9);
  });

  it('reproduces the measured steal when calibrated from it (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 500, noNaN: true }),
        fc.double({ min: 1, max: 99, noNaN: true }),
        (demand, steal) => {
          // Act
          const capacity = effectiveCapacity(demand, steal, 0);
          // Assess
          expect(predictedStealPercent(demand, capacity)).toBeCloseTo(steal, 6);
        },
      ),
    );
  });
});

describe('moves in the model', () => {
  const hot = { capacityVcpus: 16, demandVcpus: 20 };
  const cool = { capacityVcpus: 16, demandVcpus: 8 };

  it('predicts steal after removing and after adding demand', () => {
    // Act / Assess
    expect(stealAfterRemoving(hot, [2, 2])).toBe(0);
    expect(stealAfterAdding(cool, [8, 4])).toBe(20);
  });

  it('gives the demand that must leave to reach a target steal', () => {
    // Act
    const excess = excessDemand(hot, 5);
    // Assess: 20 - 16 / 0.95
    expect(excess).toBeCloseTo(20 - 16 / 0.95, 9);
    expect(stealAfterRemoving(hot, [excess])).toBeCloseTo(5, 9);
    expect(excessDemand(cool, 5)).toBe(0);
  });

  it('describes a move on both hosts and for the moved VM', () => {
    // Act
    const effect = moveEffect(hot, cool, 4);
    // Assess
    expect(effect).toEqual({
      sourceBefore: 20,
      sourceAfter: 0,
      destBefore: 0,
      destAfter: 0,
      movedVmGain: 20,
    });
  });

  it('charges the moved VM with the steal it causes at a tight destination', () => {
    // Act: 12 + 8 = 20 on 16 → 20 %.
    const effect = moveEffect(hot, { capacityVcpus: 16, demandVcpus: 12 }, 8);
    // Assess
    expect(effect.destAfter).toBeCloseTo(20, 9);
    expect(effect.movedVmGain).toBeCloseTo(0, 9);
  });
});
