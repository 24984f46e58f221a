import type { Candidates } from './candidates.js';
import type { HostWeigher } from './weigher.js';
import { FACT_WIDTH } from './weighers/factRows.js';
import type { Span } from './weighing.js';

/**
 * The smallest and largest value of each fact slot over the survivors, read from the fleet's fact
 * rows: `low[s]` / `high[s]` for slot s (NaN left out, as clampedRange does; Infinity / -Infinity
 * when there is none).
 */
export interface FactRanges {
  low: Float64Array;
  high: Float64Array;
}

const ranges: FactRanges = { low: new Float64Array(FACT_WIDTH), high: new Float64Array(FACT_WIDTH) };

/**
 * Fills the shared FactRanges (weighing is synchronous, so one serves every call). Only the
 * extremes are kept: the weighers read the survivors' rows again (addFactTerms), which beats
 * copying every fact out to columns and reading those. The slots are written out one by one: a
 * loop over them runs several times slower.
 */
export function factRanges(rows: Float64Array, c: Candidates): FactRanges {
  // Four slots a pass: the eight running extremes then stay in registers (sixteen would not).
  rangesOf(rows, c, 0);
  rangesOf(rows, c, 4);
  return ranges;
}

function rangesOf(rows: Float64Array, c: Candidates, first: number): void {
  const n = c.count;
  const { positions } = c;
  // biome-ignore format: one per slot
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, l3 = Infinity;
  // biome-ignore format: one per slot
  let h0 = -Infinity, h1 = -Infinity, h2 = -Infinity, h3 = -Infinity;
  for (let j = 0; j < n; j++) {
    const base = positions[j] * FACT_WIDTH + first;
    let x = rows[base];
    if (x < l0) l0 = x;
    if (x > h0) h0 = x;
    x = rows[base + 1];
    if (x < l1) l1 = x;
    if (x > h1) h1 = x;
    x = rows[base + 2];
    if (x < l2) l2 = x;
    if (x > h2) h2 = x;
    x = rows[base + 3];
    if (x < l3) l3 = x;
    if (x > h3) h3 = x;
  }
  const { low, high } = ranges;
  low[first] = l0;
  low[first + 1] = l1;
  low[first + 2] = l2;
  low[first + 3] = l3;
  high[first] = h0;
  high[first + 1] = h1;
  high[first + 2] = h2;
  high[first + 3] = h3;
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

/**
 * Fact weighers waiting to be added to the weights, in weigher order: each a slot of the fact
 * rows, its clamp, its (non-collapsed) span and its one multiplier. Adding them together reads each
 * survivor's row once for all of them.
 */
export class FactTerms {
  count = 0;
  slot = new Int32Array(FACT_WIDTH);
  min = new Float64Array(FACT_WIDTH);
  max = new Float64Array(FACT_WIDTH);
  lo = new Float64Array(FACT_WIDTH);
  span = new Float64Array(FACT_WIDTH);
  m = new Float64Array(FACT_WIDTH);

  /** Queues `w` (its span must not be collapsed: a collapsed span normalises to 0, not (x - lo) / span). */
  add(w: HostWeigher<unknown>, slot: number, s: Span, m: number): void {
    if (this.count === this.slot.length) this.grow();
    const k = this.count++;
    this.slot[k] = slot;
    // Clamping to ±Infinity when a bound is unset changes nothing, NaN included.
    this.min[k] = w.minval ?? Number.NEGATIVE_INFINITY;
    this.max[k] = w.maxval ?? Number.POSITIVE_INFINITY;
    this.lo[k] = s.lo;
    this.span[k] = s.span;
    this.m[k] = m;
  }

  private grow(): void {
    const size = this.slot.length * 2;
    const wider = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    const slot = new Int32Array(size);
    slot.set(this.slot);
    this.slot = slot;
    this.min = wider(this.min);
    this.max = wider(this.max);
    this.lo = wider(this.lo);
    this.span = wider(this.span);
    this.m = wider(this.m);
  }
}

/**
 * Adds every queued term to weights[0..count) and empties the queue: for each survivor, in term
 * order, m × (clamped x - lo) / span, the very operations (and order) of one pass per weigher, so
 * the sums are the same bit for bit.
 */
export function addFactTerms(rows: Float64Array, c: Candidates, t: FactTerms, weights: Float64Array): void {
  const terms = t.count;
  t.count = 0;
  if (terms === 0) return;
  let k = 0;
  // Up to four terms a pass: their divisions overlap, and each survivor's position and row are
  // read once for all of them (a pass per term: 26 µs at 10k hosts; by fours: 19).
  for (; k + 3 < terms; k += 4) addFourTerms(rows, c, t, k, weights);
  for (; k + 1 < terms; k += 2) addTwoTerms(rows, c, t, k, weights);
  if (k < terms) addOneTerm(rows, c, t, k, weights);
}

function addOneTerm(rows: Float64Array, c: Candidates, t: FactTerms, k: number, weights: Float64Array): void {
  const { positions } = c;
  const n = c.count;
  const slot = t.slot[k];
  const min = t.min[k];
  const max = t.max[k];
  const lo = t.lo[k];
  const span = t.span[k];
  const m = t.m[k];
  for (let j = 0; j < n; j++) {
    let x = rows[positions[j] * FACT_WIDTH + slot];
    if (x < min) x = min;
    if (x > max) x = max;
    weights[j] += m * ((x - lo) / span);
  }
}

function addTwoTerms(
  rows: Float64Array,
  c: Candidates,
  t: FactTerms,
  k: number,
  weights: Float64Array,
): void {
  const { positions } = c;
  const n = c.count;
  // biome-ignore format: one line per property
  const s1 = t.slot[k], s2 = t.slot[k + 1];
  // biome-ignore format: one line per property
  const min1 = t.min[k], min2 = t.min[k + 1];
  // biome-ignore format: one line per property
  const max1 = t.max[k], max2 = t.max[k + 1];
  // biome-ignore format: one line per property
  const lo1 = t.lo[k], lo2 = t.lo[k + 1];
  // biome-ignore format: one line per property
  const span1 = t.span[k], span2 = t.span[k + 1];
  // biome-ignore format: one line per property
  const m1 = t.m[k], m2 = t.m[k + 1];
  for (let j = 0; j < n; j++) {
    const base = positions[j] * FACT_WIDTH;
    let x = rows[base + s1];
    if (x < min1) x = min1;
    if (x > max1) x = max1;
    let y = rows[base + s2];
    if (y < min2) y = min2;
    if (y > max2) y = max2;
    // In term order, as two passes would add them.
    let w = weights[j] + m1 * ((x - lo1) / span1);
    w += m2 * ((y - lo2) / span2);
    weights[j] = w;
  }
}

function addFourTerms(
  rows: Float64Array,
  c: Candidates,
  t: FactTerms,
  k: number,
  weights: Float64Array,
): void {
  const { positions } = c;
  const n = c.count;
  // biome-ignore format: one line per property
  const s1 = t.slot[k], s2 = t.slot[k + 1], s3 = t.slot[k + 2], s4 = t.slot[k + 3];
  // biome-ignore format: one line per property
  const min1 = t.min[k], min2 = t.min[k + 1], min3 = t.min[k + 2], min4 = t.min[k + 3];
  // biome-ignore format: one line per property
  const max1 = t.max[k], max2 = t.max[k + 1], max3 = t.max[k + 2], max4 = t.max[k + 3];
  // biome-ignore format: one line per property
  const lo1 = t.lo[k], lo2 = t.lo[k + 1], lo3 = t.lo[k + 2], lo4 = t.lo[k + 3];
  // biome-ignore format: one line per property
  const sp1 = t.span[k], sp2 = t.span[k + 1], sp3 = t.span[k + 2], sp4 = t.span[k + 3];
  // biome-ignore format: one line per property
  const m1 = t.m[k], m2 = t.m[k + 1], m3 = t.m[k + 2], m4 = t.m[k + 3];
  for (let j = 0; j < n; j++) {
    const base = positions[j] * FACT_WIDTH;
    let a = rows[base + s1];
    if (a < min1) a = min1;
    if (a > max1) a = max1;
    let b = rows[base + s2];
    if (b < min2) b = min2;
    if (b > max2) b = max2;
    let x = rows[base + s3];
    if (x < min3) x = min3;
    if (x > max3) x = max3;
    let y = rows[base + s4];
    if (y < min4) y = min4;
    if (y > max4) y = max4;
    let w = weights[j] + m1 * ((a - lo1) / sp1);
    w += m2 * ((b - lo2) / sp2);
    w += m3 * ((x - lo3) / sp3);
    w += m4 * ((y - lo4) / sp4);
    weights[j] = w;
  }
}

/** One fact slot of the survivors' rows, as raw weights (for a weigher with per-host multipliers). */
export function factColumn(rows: Float64Array, c: Candidates, slot: number, raw: Float64Array): void {
  const { positions } = c;
  for (let j = 0; j < c.count; j++) raw[j] = rows[positions[j] * FACT_WIDTH + slot];
}
