import type { Candidates } from './candidates.js';
import type { HostWeigher } from './weigher.js';
import { FACT_WIDTH } from './weighers/factRows.js';
import { normalized, type Span } from './weighing.js';

/**
 * The survivors' facts, read from the fleet's fact rows in one pass: `columns` holds one column of
 * `count` per fact slot (slot s at s × count), `low[s]` / `high[s]` the smallest and largest value
 * of slot s (NaN left out, as clampedRange does; Infinity / -Infinity when there is none).
 */
export interface GatheredFacts {
  columns: Float64Array;
  low: Float64Array;
  high: Float64Array;
}

const gathered: GatheredFacts = {
  columns: new Float64Array(1024 * FACT_WIDTH),
  low: new Float64Array(FACT_WIDTH),
  high: new Float64Array(FACT_WIDTH),
};

/**
 * Fills the shared GatheredFacts (weighing is synchronous, so one serves every call). The slots
 * are written out one by one: a loop over them runs several times slower, and finding each
 * range here saves every weigher a pass over its column.
 */
export function gatherFacts(rows: Float64Array, c: Candidates): GatheredFacts {
  const n = c.count;
  if (gathered.columns.length < n * FACT_WIDTH) {
    gathered.columns = new Float64Array(Math.max(n, (gathered.columns.length / FACT_WIDTH) * 2) * FACT_WIDTH);
  }
  const out = gathered.columns;
  const { positions } = c;
  // Each slot's running extremes, kept in locals (registers) rather than an array.
  // biome-ignore format: one per slot
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity, l4 = Infinity, l5 = Infinity, l6 = Infinity, l7 = Infinity;
  // biome-ignore format: one per slot
  let h0 = -Infinity, h1 = -Infinity, h2 = -Infinity, h3 = -Infinity, h4 = -Infinity, h5 = -Infinity, h6 = -Infinity, h7 = -Infinity;
  for (let j = 0; j < n; j++) {
    const base = positions[j] * FACT_WIDTH;
    let x = rows[base];
    out[j] = x;
    if (x < l0) l0 = x;
    if (x > h0) h0 = x;
    x = rows[base + 1];
    out[n + j] = x;
    if (x < l1) l1 = x;
    if (x > h1) h1 = x;
    x = rows[base + 2];
    out[2 * n + j] = x;
    if (x < l2) l2 = x;
    if (x > h2) h2 = x;
    x = rows[base + 3];
    out[3 * n + j] = x;
    if (x < l3) l3 = x;
    if (x > h3) h3 = x;
    x = rows[base + 4];
    out[4 * n + j] = x;
    if (x < l4) l4 = x;
    if (x > h4) h4 = x;
    x = rows[base + 5];
    out[5 * n + j] = x;
    if (x < l5) l5 = x;
    if (x > h5) h5 = x;
    x = rows[base + 6];
    out[6 * n + j] = x;
    if (x < l6) l6 = x;
    if (x > h6) h6 = x;
    x = rows[base + 7];
    out[7 * n + j] = x;
    if (x < l7) l7 = x;
    if (x > h7) h7 = x;
  }
  gathered.low.set([l0, l1, l2, l3, l4, l5, l6, l7]);
  gathered.high.set([h0, h1, h2, h3, h4, h5, h6, h7]);
  return gathered;
}

/** The weigher's clamp to [minval, maxval], exactly as clampedRange applies it. */
function clamp(w: HostWeigher<unknown>, x: number): number {
  let v = x;
  if (w.minval !== undefined && v < w.minval) v = w.minval;
  if (w.maxval !== undefined && v > w.maxval) v = w.maxval;
  return v;
}

/**
 * clampedRange's span for values whose unclamped extremes are `low` and `high`: clamping never
 * reorders values, so the clamped extremes are the clamped `low` and `high`.
 */
export function clampedSpan(w: HostWeigher<unknown>, low: number, high: number): Span {
  const none = low === Infinity && high === -Infinity;
  let lo = none ? Infinity : clamp(w, low);
  let hi = none ? -Infinity : clamp(w, high);
  if (w.minval !== undefined) lo = w.minval;
  if (w.maxval !== undefined) hi = w.maxval;
  const span = hi - lo;
  return { lo, span, collapsed: span === 0 || Number.isNaN(span) };
}

/** Adds m × normalised clamped raw[j] to weights[j], with one multiplier for every host. */
export function addClampedNormalized(
  w: HostWeigher<unknown>,
  raw: Float64Array,
  s: Span,
  m: number,
  n: number,
  weights: Float64Array,
): void {
  const min = w.minval ?? Number.NEGATIVE_INFINITY;
  const max = w.maxval ?? Number.POSITIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    // Clamping to ±Infinity when a bound is unset changes nothing, NaN included.
    let x = raw[j];
    if (x < min) x = min;
    if (x > max) x = max;
    weights[j] += m * normalized(x, s);
  }
}
