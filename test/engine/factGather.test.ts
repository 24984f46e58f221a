import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addFactTerms, clampedSpan, FactTerms, factRanges } from '../../lib/engine/factGather.js';
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

/** Low and high as factRanges finds them: NaN left out. */
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

  it('adds several weighers from the fact rows bit for bit as one pass per weigher would', () => {
    const term = fc.record({
      slot: fc.integer({ min: 0, max: FACT_WIDTH - 1 }),
      minval: bound,
      maxval: bound,
      m: fc.constantFrom(1, -1, 1.5, 0.3, 1e6),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: FACT_WIDTH, maxLength: FACT_WIDTH }), {
          minLength: 2,
          maxLength: 6,
        }),
        fc.array(term, { minLength: 1, maxLength: 12 }),
        (hostFacts, specs) => {
          // Prepare: every host a candidate, weights starting off zero
          const n = hostFacts.length;
          const rows = Float64Array.from(hostFacts.flat());
          const candidates = {
            hosts: [],
            index: null as never,
            positions: Int32Array.from(hostFacts.keys()),
            count: n,
          };
          const expected = new Float64Array(n).fill(0.25);
          const weights = new Float64Array(n).fill(0.25);
          const terms = new FactTerms();
          for (const { slot, minval, maxval, m } of specs) {
            const w = weigherWith(minval, maxval);
            const raw = Float64Array.from(hostFacts, (f) => f[slot]);
            const span = clampedRange(w, raw, n);
            if (span.collapsed) continue;
            for (let j = 0; j < n; j++) expected[j] += m * normalized(raw[j], span);
            terms.add(w, slot, span, m);
          }
          // Act
          addFactTerms(rows, candidates, terms, weights);
          // Assess
          expect(Array.from(weights).every((x, j) => Object.is(x, expected[j]))).toBe(true);
          expect(terms.count).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds each fact extremes over the candidates only', () => {
    // Prepare
    const hosts = Fleet.from(
      [100, 300, 200, 50].map((free_ram_mb, i) => makeHost({ host: `h${i}`, free_ram_mb, num_io_ops: i })),
    ).hosts;
    const rows = new Float64Array(hosts.length * FACT_WIDTH);
    hosts.forEach((h, i) => {
      rows[i * FACT_WIDTH] = h.free_ram_mb;
      rows[i * FACT_WIDTH + 3] = h.num_io_ops;
      rows[i * FACT_WIDTH + 7] = Number.NaN;
    });
    const candidates = { hosts, index: fleetIndex(hosts), positions: Int32Array.from([1, 2]), count: 2 };
    // Act
    const range = factRanges(rows, candidates);
    // Assess
    expect([range.low[0], range.high[0], range.low[3], range.high[3]]).toEqual([200, 300, 1, 2]);
    expect([range.low[7], range.high[7]]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  });
});
