import { describe, expect, it } from 'vitest';
import { readWindow, requiredBuckets } from '../../lib/rebalance/samples.js';
import { minutesAgo, NOW, settingsWith } from './fixtures.js';

const SETTINGS = settingsWith();
const RANGES = { steal_percent: [0, 100], load5: [0, Number.POSITIVE_INFINITY] } as const;

/** Samples at the given minutes ago, each with the given steal. */
function at(entries: [ago: number, steal: number][]) {
  return entries.map(([ago, steal]) => ({ ts: minutesAgo(ago), steal_percent: steal, load5: 2 }));
}

const everyMinute = (steal: number) => at(Array.from({ length: 10 }, (_, i): [number, number] => [i, steal]));

describe('readWindow', () => {
  it('summarises a fully covered window bucket by bucket', () => {
    // Prepare
    const samples = at(Array.from({ length: 10 }, (_, i): [number, number] => [i, 10 + i]));
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading).toMatchObject({ kind: 'ok', covered: 10, buckets: 10, rejected: 0 });
    expect(reading.kind === 'ok' && reading.stats.steal_percent).toEqual({
      min: 10,
      mean: 14.5,
      max: 19,
      last: 10,
    });
  });

  it.each([
    ['two lost reports are tolerated', [0, 1, 2, 3, 5, 6, 8, 9], 'ok'],
    ['three lost reports are not', [0, 1, 2, 3, 5, 6, 9], 'insufficient'],
    [
      'a burst of samples cannot stand in for the window',
      [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2],
      'insufficient',
    ],
  ])('%s', (_case, minutes, kind) => {
    // Prepare
    const samples = at(minutes.map((m): [number, number] => [m, 20]));
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading.kind).toBe(kind);
  });

  it('explains insufficient coverage with the numbers', () => {
    // Act
    const reading = readWindow(
      at([
        [0, 20],
        [1, 20],
        [2, 20],
      ]),
      NOW,
      SETTINGS,
      RANGES,
    );
    // Assess
    expect(reading.kind !== 'ok' && reading.reason).toBe(
      'insufficient data: 3 of 10 60-second buckets have usable samples (needs 8)',
    );
  });

  it.each([
    ['no sample at all', [], null, 'stale: no usable sample (limit 3 min)'],
    [
      'a newest sample older than the limit',
      at([
        [4, 20],
        [5, 20],
      ]),
      4,
      'stale: newest usable sample is 4.0 min old (limit 3 min)',
    ],
  ])('marks %s as stale', (_case, samples, age, reason) => {
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading).toMatchObject({ kind: 'stale', newestAgeMinutes: age, reason });
  });

  it.each([
    ['negative steal (a counter reset)', -35],
    ['steal above 100 %', 340],
    ['a non-finite value', Number.NaN],
  ])('treats %s as a gap, not data', (_case, bad) => {
    // Prepare
    const samples = everyMinute(20);
    samples[4].steal_percent = bad;
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading).toMatchObject({ kind: 'ok', covered: 9, rejected: 1 });
    expect(reading.kind === 'ok' && reading.stats.steal_percent.min).toBe(20);
  });

  it('rejects undated samples and says so', () => {
    // Prepare
    const samples = [...at([[0, 20]]), { ts: 'yesterday', steal_percent: 20, load5: 2 }];
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading.kind !== 'ok' && reading.reason).toContain(
      '1 sample(s) rejected as out of range or undated',
    );
  });

  it('averages several samples of one bucket so a fast agent does not outvote a slow one', () => {
    // Prepare: minute 0 has four samples at 40 %, the others one at 10 %.
    const samples = [
      ...everyMinute(10).slice(1),
      ...at([
        [0, 40],
        [0.2, 40],
        [0.4, 40],
        [0.6, 40],
      ]),
    ];
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading.kind === 'ok' && reading.stats.steal_percent.mean).toBeCloseTo(13, 9);
  });

  it('ignores samples before `since` (another host) and needs the coverage again', () => {
    // Act
    const reading = readWindow(everyMinute(20), NOW, SETTINGS, RANGES, Date.parse(minutesAgo(4.5)));
    // Assess
    expect(reading).toMatchObject({ kind: 'insufficient', covered: 5 });
  });

  it('counts a sample slightly ahead of the clock (agent skew) as the newest bucket', () => {
    // Prepare
    const samples = [...everyMinute(10).slice(1), ...at([[-0.5, 30]])];
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading.kind === 'ok' && reading.stats.steal_percent.last).toBe(30);
  });

  it.each([
    [10, 80, 8],
    [10, 100, 10],
    [3, 80, 3],
    [10, 1, 1],
  ])('needs ceil(%i buckets × %i %%) = %i covered buckets', (buckets, coverage, needed) => {
    // Act / Assess
    expect(requiredBuckets(buckets, coverage)).toBe(needed);
  });
});
