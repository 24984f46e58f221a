import { describe, expect, it } from 'vitest';
import { localMinutes, tabulateCurve } from '../../lib/sim/loadCurve.js';

describe('load curves', () => {
  const curve = tabulateCurve([
    { at: '06:00', level: 0.2 },
    { at: '09:00', level: 1 },
    { at: '18:00', level: 0.4 },
  ]);

  it.each([
    ['at a point', 9 * 60, 1],
    ['between two points', 7 * 60 + 30, 0.6],
    ['after the last point, heading back to the first', 0, 0.4 - (0.2 * 6) / 12],
    ['just before the first point', 6 * 60 - 1, 0.2 + 0.2 / (12 * 60)],
  ])('interpolates %s', (_what, minute, level) => {
    expect(curve[minute]).toBeCloseTo(level, 9);
  });

  it('is flat with a single point', () => {
    expect(new Set(tabulateCurve([{ at: '12:00', level: 0.7 }]))).toEqual(new Set([0.7]));
  });

  it('reads the local time of each simulated minute in the scenario time zone', () => {
    const local = localMinutes(new Date('2026-12-01T14:59:00Z'), 3, 'Asia/Tokyo');
    expect([...local]).toEqual([23 * 60 + 59, 0, 1]);
  });
});
