import { describe, expect, it } from 'vitest';
import {
  HEAT_COLOURS,
  heatBounds,
  heatClass,
  linearScale,
  niceTicks,
  timeTicks,
} from '../../../lib/sim/report/scale.js';

describe('linearScale', () => {
  it('maps the domain ends onto the range ends and interpolates between', () => {
    const x = linearScale([100, 200], [0, 50]);

    expect([x(100), x(150), x(200)]).toEqual([0, 25, 50]);
  });

  it('maps everything to the range start when the domain has no width', () => {
    expect(linearScale([5, 5], [10, 20])(5)).toBe(10);
  });
});

describe('niceTicks', () => {
  it.each([
    [47.9, [0, 10, 20, 30, 40, 50]],
    [50, [0, 10, 20, 30, 40, 50]],
    [6_000, [0, 2_000, 4_000, 6_000]],
    [7, [0, 2, 4, 6, 8]],
  ])('covers %d with round steps from zero', (max, expected) => {
    expect(niceTicks(max, 4)).toEqual(expected);
  });

  it('never needs more than count + 1 intervals', () => {
    for (const max of [0.3, 1, 9.99, 10.01, 123, 999, 1_001, 48_000]) {
      const ticks = niceTicks(max, 4);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
      expect(ticks.length - 1).toBeLessThanOrEqual(5);
    }
  });

  it('steps by whole numbers at least when asked to', () => {
    expect(niceTicks(1, 4, 1)).toEqual([0, 1]);
    expect(niceTicks(3, 4, 1)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(12, 4, 1).every(Number.isInteger)).toBe(true);
  });

  it('gives a usable axis when every value is zero', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});

describe('timeTicks', () => {
  it('puts ticks on round local hours, not round UTC hours', () => {
    // 00:30Z is 09:30 in Tokyo (+9:00) and 06:00 in Kolkata (+5:30).
    const start = Date.parse('2025-01-06T00:30:00Z');
    const end = start + 6 * 3_600_000;

    const tokyo = timeTicks(start, end, 540, 8).map((t) =>
      new Date(t + 540 * 60_000).toISOString().slice(11, 16),
    );
    const kolkata = timeTicks(start, end, 330, 8).map((t) =>
      new Date(t + 330 * 60_000).toISOString().slice(11, 16),
    );

    expect(tokyo).toEqual(['10:00', '11:00', '12:00', '13:00', '14:00', '15:00']);
    expect(kolkata).toEqual(['06:00', '07:00', '08:00', '09:00', '10:00', '11:00', '12:00']);
  });

  it('widens the step to stay within the tick budget', () => {
    const start = Date.parse('2025-01-06T00:00:00Z');

    expect(timeTicks(start, start + 86_400_000, 0, 12).length).toBeLessThanOrEqual(12);
  });
});

describe('heatClass', () => {
  it('turns hot exactly at the steal threshold', () => {
    const bounds = heatBounds(10);
    const firstHot = HEAT_COLOURS.length - 5;

    expect(heatClass(9.99, bounds)).toBe(firstHot - 1);
    expect(heatClass(10, bounds)).toBe(firstHot);
  });

  it('uses the calmest colour for no steal and the hottest far above the threshold', () => {
    const bounds = heatBounds(10);

    expect(heatClass(0, bounds)).toBe(0);
    expect(heatClass(95, bounds)).toBe(HEAT_COLOURS.length - 1);
  });
});
