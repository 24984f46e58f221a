/**
 * A metric series as numbers, not sample objects: SERIES_STRIDE doubles a sample (epoch ms, steal,
 * cpu, load5), oldest first, one sample per time. The detector reads 200,000 VMs' windows at
 * 10,000 hosts (issue 17); as objects with ISO strings those cost a Date.parse per sample and
 * most of a Lambda's memory, as a stretch of one shared Float64Array they cost neither.
 */
import type { HostSample } from './reports.js';

/** Doubles per sample. */
export const SERIES_STRIDE = 4;
/** Offsets within a sample. */
export const SERIES_MS = 0;
export const SERIES_STEAL = 1;
export const SERIES_CPU = 2;
export const SERIES_LOAD5 = 3;

/** Samples `start` (inclusive) to `end` (exclusive) of `data`, counted in samples. */
export interface SampleSeries {
  readonly data: Float64Array;
  readonly start: number;
  readonly end: number;
}

/** A sample with any of the series' metrics (one without a metric has NaN there). */
export type NumericSample = { ts: string } & Partial<Pick<HostSample, SeriesField>>;

/** The metrics a series holds. */
export type SeriesField = 'steal_percent' | 'cpu_percent' | 'load5';

/** Where each metric sits within a sample. */
export const SERIES_OFFSET: Readonly<Record<SeriesField, number>> = {
  steal_percent: SERIES_STEAL,
  cpu_percent: SERIES_CPU,
  load5: SERIES_LOAD5,
};

/** Samples as a series, in the order given; an unparseable time or a missing value becomes NaN. */
export function seriesOf(samples: readonly NumericSample[]): SampleSeries {
  const data = new Float64Array(samples.length * SERIES_STRIDE);
  samples.forEach((s, i) => {
    const at = i * SERIES_STRIDE;
    data[at + SERIES_MS] = Date.parse(s.ts);
    data[at + SERIES_STEAL] = numberOrNaN(s.steal_percent);
    data[at + SERIES_CPU] = numberOrNaN(s.cpu_percent);
    data[at + SERIES_LOAD5] = numberOrNaN(s.load5);
  });
  return { data, start: 0, end: samples.length };
}

export const seriesLength = (s: SampleSeries): number => s.end - s.start;

export const EMPTY_SERIES: SampleSeries = { data: new Float64Array(0), start: 0, end: 0 };

/** Samples may be objects from a report or a series from the store; either way, a series. */
export function asSeries(samples: readonly NumericSample[] | SampleSeries): SampleSeries {
  return Array.isArray(samples) ? seriesOf(samples) : (samples as SampleSeries);
}

// Typed arrays turn anything into a number; a string or undefined must stay unusable (NaN).
const numberOrNaN = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);
