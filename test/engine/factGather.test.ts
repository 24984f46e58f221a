import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addClampedNormalized, clampedSpan, gatherFacts } from '../../lib/engine/factGather.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { fleetIndex } from '../../lib/engine/prefilter/fleetIndex.js';
import type { HostWeigher } from '../../lib/engine/weigher.js';
import { FACT_WIDTH } from '../../lib/engine/weighers/factRows.js';
import { clampedRange, normalized } from '../../lib/engine/weighing.js';
import { makeHost } from '../helpers/factories.js';

const value = fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0),
);
const bound = fc.constantFrom(undefined, -5, 0, 3, 1e6);

function weigherWith(minval: number | undefined, maxval: number | undefined): HostWeigher<unknown> {
  return { name: 'W', minval, maxval, weigh: () => 0, multiplier: () => 1 };
}

/** Low and high as gatherFacts finds them: NaN left out. */
function extremes(values: number[]): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const x of values) {
    if (x < low) low = x;
    if (x > high) high = x;
  }
  return [low, high];
}

describe('weighing from gathered facts', () => {
  it('normalises over the span clampedRange finds, from the unclamped extremes alone', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), bound, bound, (values, minval, maxval) => {
        // Prepare
        const w = weigherWith(minval, maxval);
        const [low, high] = extremes(values);
        // Act
        const span = clampedSpan(w, low, high);
        // Assess
        const expected = clampedRange(w, Float64Array.from(values), values.length);
        expect(span.collapsed).toBe(expected.collapsed);
        if (!expected.collapsed) expect([span.lo, span.span]).toEqual([expected.lo, expected.span]);
      }),
      { numRuns: 300 },
    );
  });

  it('adds each clamped, normalised value bit for bit as the engine does', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 8 }), bound, bound, (values, minval, maxval) => {
        // Prepare
        const w = weigherWith(minval, maxval);
        const clamped = Float64Array.from(values);
        const span = clampedRange(w, clamped, values.length);
        const weights = new Float64Array(values.length).fill(0.25);
        // Act
        addClampedNormalized(w, Float64Array.from(values), span, 1.5, values.length, weights);
        // Assess
        const expected = Array.from(clamped, (x) => 0.25 + 1.5 * normalized(x, span));
        expect(Array.from(weights).every((x, j) => Object.is(x, expected[j]))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gathers every fact of the candidates in order, with each fact extremes', () => {
    // Prepare
    const hosts = Fleet.from(
      [100, 300, 200, 50].map((free_ram_mb, i) => makeHost({ host: `h${i}`, free_ram_mb, num_io_ops: i })),
    ).hosts;
    const rows = new Float64Array(hosts.length * FACT_WIDTH);
    hosts.forEach((h, i) => {
      rows[i * FACT_WIDTH] = h.free_ram_mb;
      rows[i * FACT_WIDTH + 3] = h.num_io_ops;
    });
    const candidates = { hosts, index: fleetIndex(hosts), positions: Int32Array.from([1, 2]), count: 2 };
    // Act
    const facts = gatherFacts(rows, candidates);
    // Assess
    expect(Array.from(facts.columns.subarray(0, 2))).toEqual([300, 200]);
    expect(Array.from(facts.columns.subarray(6, 8))).toEqual([1, 2]);
    expect([facts.low[0], facts.high[0], facts.low[3], facts.high[3]]).toEqual([200, 300, 1, 2]);
  });
});
