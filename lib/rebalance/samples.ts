/**
 * Reads a metric series over the sustained window ending at `now`. The window is split into
 * buckets of the expected sample interval (ten one-minute buckets by default); each bucket's value
 * is the mean of its usable samples, so a faster agent does not outvote a slower one and a burst of
 * samples cannot stand in for a whole window. Gaps are tolerated up to the coverage requirement.
 * A sample with an unparseable time or a value out of range (what a counter reset or a clock jump
 * produces: negative or >100 % rates) is a gap, not data.
 */
import {
  asSeries,
  type SampleSeries,
  SERIES_MS,
  SERIES_OFFSET,
  SERIES_STRIDE,
  type SeriesField,
} from '../model/sampleSeries.js';
import type { WindowStats } from './types.js';

export interface WindowSettings {
  sustain_minutes: number;
  sample_interval_seconds: number;
  min_coverage_percent: number;
  stale_sample_minutes: number;
}

/** Field name → allowed [min, max] range of its values. */
export type FieldRanges<F extends SeriesField> = Readonly<Record<F, readonly [number, number]>>;

/** Agents' clocks may run slightly ahead of the detector's; samples this far ahead count as "now". */
export const CLOCK_SKEW_TOLERANCE_MS = 60_000;

export type WindowReading<F extends string> =
  | { kind: 'stale'; newestAgeMinutes: number | null; rejected: number; reason: string }
  | { kind: 'insufficient'; covered: number; buckets: number; rejected: number; reason: string }
  | { kind: 'ok'; covered: number; buckets: number; rejected: number; stats: Record<F, WindowStats> };

/**
 * Summarises `fields` of `samples` over the window `(now - sustain, now]`. Samples before `since`
 * (e.g. the VM's last migration: they describe another host) are ignored, and the window still
 * needs its coverage, so a VM moved 4 minutes ago has 4 of 10 buckets at most. `samples` may be
 * report objects or a series read from the store (sampleSeries.ts): both are read the same way.
 * @example readWindow(vm.samples, now, settings, { steal_percent: [0, 100], load5: [0, Infinity] })
 */
export function readWindow<F extends SeriesField>(
  samples: readonly ({ ts: string } & { [K in NoInfer<F>]: number })[] | SampleSeries,
  now: Date,
  settings: WindowSettings,
  ranges: FieldRanges<F>,
  since: number = Number.NEGATIVE_INFINITY,
): WindowReading<F> {
  const fields = Object.keys(ranges) as F[];
  const offsets = fields.map((f) => SERIES_OFFSET[f]);
  const lows = fields.map((f) => ranges[f][0]);
  const highs = fields.map((f) => ranges[f][1]);
  const { data, start, end } = asSeries(samples);
  const to = now.getTime();
  const windowMs = settings.sustain_minutes * 60_000;
  const from = to - windowMs;
  const latest = to + CLOCK_SKEW_TOLERANCE_MS;
  const buckets = Math.max(1, Math.round(windowMs / (settings.sample_interval_seconds * 1000)));
  const bucketMs = windowMs / buckets;
  // Plain loops and flat arrays: this runs for every VM of the fleet on every detector run.
  const sums: number[] = new Array(fields.length * buckets).fill(0);
  const counts: number[] = new Array(buckets).fill(0);
  let rejected = 0;
  let newest = Number.NEGATIVE_INFINITY;
  for (let at = start * SERIES_STRIDE; at < end * SERIES_STRIDE; at += SERIES_STRIDE) {
    const ts = data[at + SERIES_MS];
    if (!(ts <= latest && ts > since)) {
      if (Number.isNaN(ts)) rejected++;
      continue;
    }
    const usable = allInRange(data, at, offsets, lows, highs);
    if (usable && ts > newest) newest = ts;
    if (ts <= from) continue;
    if (!usable) {
      rejected++;
      continue;
    }
    const bucket = Math.min(buckets - 1, Math.max(0, Math.ceil((ts - from) / bucketMs) - 1));
    counts[bucket]++;
    for (let i = 0; i < fields.length; i++) sums[i * buckets + bucket] += data[at + offsets[i]];
  }
  return summarise(fields, sums, counts, { to, newest, rejected, settings });
}

function allInRange(
  data: Float64Array,
  at: number,
  offsets: readonly number[],
  lows: readonly number[],
  highs: readonly number[],
): boolean {
  for (let i = 0; i < offsets.length; i++) {
    const value = data[at + offsets[i]];
    // NaN (a missing or non-numeric value) and ±Infinity are not data.
    if (!Number.isFinite(value) || value < lows[i] || value > highs[i]) return false;
  }
  return true;
}

function summarise<F extends string>(
  fields: F[],
  sums: readonly number[],
  counts: readonly number[],
  ctx: { to: number; newest: number; rejected: number; settings: WindowSettings },
): WindowReading<F> {
  const { to, newest, rejected, settings } = ctx;
  const buckets = counts.length;
  const rejectedNote = rejected > 0 ? `; ${rejected} sample(s) rejected as out of range or undated` : '';
  const ageMinutes = (to - newest) / 60_000;
  if (!(ageMinutes <= settings.stale_sample_minutes)) {
    const newestAgeMinutes = Number.isFinite(ageMinutes) ? ageMinutes : null;
    const age =
      newestAgeMinutes === null
        ? 'no usable sample'
        : `newest usable sample is ${Math.max(0, newestAgeMinutes).toFixed(1)} min old`;
    return {
      kind: 'stale',
      newestAgeMinutes,
      rejected,
      reason: `stale: ${age} (limit ${settings.stale_sample_minutes} min)${rejectedNote}`,
    };
  }
  const covered = counts.reduce((n, c) => n + (c > 0 ? 1 : 0), 0);
  const needed = requiredBuckets(buckets, settings.min_coverage_percent);
  if (covered < needed) {
    const bucketLabel = `${settings.sample_interval_seconds}-second`;
    return {
      kind: 'insufficient',
      covered,
      buckets,
      rejected,
      reason: `insufficient data: ${covered} of ${buckets} ${bucketLabel} buckets have usable samples (needs ${needed})${rejectedNote}`,
    };
  }
  const stats = {} as Record<F, WindowStats>;
  fields.forEach((f, i) => {
    stats[f] = bucketStats(sums, i * buckets, counts);
  });
  return { kind: 'ok', covered, buckets, rejected, stats };
}

/** Buckets that must hold data: ceil(buckets × coverage), at least one. */
export function requiredBuckets(buckets: number, minCoveragePercent: number): number {
  // Round away float noise first: 10 × 80 / 100 is 8, not 8.000000000000002.
  return Math.max(1, Math.ceil(Number(((buckets * minCoveragePercent) / 100).toFixed(9))));
}

function bucketStats(sums: readonly number[], offset: number, counts: readonly number[]): WindowStats {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let total = 0;
  let n = 0;
  let last = 0;
  for (let b = 0; b < counts.length; b++) {
    if (counts[b] === 0) continue;
    const value = sums[offset + b] / counts[b];
    min = Math.min(min, value);
    max = Math.max(max, value);
    total += value;
    n++;
    last = value;
  }
  return { min, mean: total / n, max, last };
}
