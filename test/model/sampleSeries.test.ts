/** Series: samples as numbers, read by the detector exactly as the sample objects they stand for. */
import { describe, expect, it } from 'vitest';
import { seriesOf } from '../../lib/model/sampleSeries.js';
import { readWindow } from '../../lib/rebalance/samples.js';
import { minutesAgo, NOW, settingsWith } from '../rebalance/fixtures.js';
import { samplesOf } from './seriesSamples.js';

const RANGES = {
  steal_percent: [0, 100],
  cpu_percent: [0, 100],
  load5: [0, Number.POSITIVE_INFINITY],
} as const;
const SETTINGS = settingsWith();

const sample = (ago: number, steal: number) => ({
  ts: minutesAgo(ago),
  steal_percent: steal,
  cpu_percent: 50,
  load5: 2.5,
});

describe('sample series', () => {
  it('gives back the samples it was made from, times to the millisecond', () => {
    // Prepare
    const samples = [sample(3.0001, 12.345678901234567), sample(2, 0), sample(1, 100)];
    // Act
    const back = samplesOf(seriesOf(samples));
    // Assess
    expect(back).toEqual(samples);
  });

  it('reads the same window from a series as from its objects', () => {
    // Prepare: ten minutes, one sample out of range
    const samples = Array.from({ length: 10 }, (_, i) => sample(i, i === 4 ? 130 : 10 + i));
    // Act
    const fromObjects = readWindow(samples, NOW, SETTINGS, RANGES);
    const fromSeries = readWindow(seriesOf(samples), NOW, SETTINGS, RANGES);
    // Assess
    expect(fromSeries).toEqual(fromObjects);
    expect(fromSeries).toMatchObject({ kind: 'ok', covered: 9, rejected: 1 });
  });

  it('keeps a value that is not a number, or a time that is not one, out of the window as a gap', () => {
    // Prepare: a string where a number belongs (a typed array would make "55" a 55) and a bad time
    const samples = [
      ...Array.from({ length: 8 }, (_, i) => sample(i, 20)),
      { ...sample(8, 20), steal_percent: '55' as unknown as number },
      { ...sample(9, 20), ts: 'yesterday' },
    ];
    // Act
    const reading = readWindow(samples, NOW, SETTINGS, RANGES);
    // Assess
    expect(reading).toMatchObject({ kind: 'ok', covered: 8, rejected: 2 });
  });
});
