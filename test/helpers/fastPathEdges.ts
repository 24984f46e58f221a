/**
 * Values on and around every edge the schemas check, and helpers to compare a fast validation path
 * with zod's (test/model/hostFastPath.test.ts, test/model/requestFastPath.test.ts).
 */
import fc from 'fast-check';
import { BOUNDS } from '../../lib/model/bounds.js';
import { HOSTILE_STRINGS } from './hostile.js';

/** A value with every object's key order made visible, so toStrictEqual compares order too. */
export function ordered(v: unknown): unknown {
  if (Array.isArray(v)) return { array: v.map(ordered) };
  if (v !== null && typeof v === 'object')
    return { proto: Object.getPrototypeOf(v), entries: Object.entries(v).map(([k, x]) => [k, ordered(x)]) };
  return v;
}

export function outcome(fn: () => unknown): unknown {
  try {
    return { ok: ordered(fn()) };
  } catch (err) {
    return { error: (err as Error).name, message: (err as Error).message };
  }
}

/** Every bound's edges and their neighbours, plus numbers zod treats specially. */
const EDGE_NUMBERS = [
  ...new Set(
    Object.values(BOUNDS).flatMap((b) => [
      b.min,
      b.max,
      b.min - 1,
      b.max + 1,
      b.min + 0.5,
      b.max - 0.5,
      b.min - 1e-9,
      b.max + 1e-6,
      -b.max,
    ]),
  ),
  0,
  -0,
  0.25,
  1,
  -1,
  2 ** 53,
  2 ** 53 + 2,
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
];

const EDGE_STRINGS = [
  ...HOSTILE_STRINGS,
  'x'.repeat(255),
  'cmp-1',
  'ñandú',
  'emoji-😀',
  '\ud83d\ude00',
  '__proto__',
  'constructor',
  ' ',
];

const WRONG_TYPES: unknown[] = [null, true, false, [], {}, [1], { a: 1 }, ['x', 'y', 'z'], [['x', 'y', 'z']]];

export const ANY_VALUE: unknown[] = [...EDGE_NUMBERS, ...EDGE_STRINGS, ...WRONG_TYPES];
/** For places that hold no number: a few numbers are enough to be the wrong type. */
export const NON_NUMBER_VALUES: unknown[] = [0, -1, 1.5, Number.NaN, ...EDGE_STRINGS, ...WRONG_TYPES];

/** A change for a property test: any of `paths` holding an edge value or anything fast-check makes. */
export function hostileChange(paths: (string | number)[][]) {
  return fc.record({
    path: fc.constantFrom(...paths),
    value: fc.oneof(fc.constantFrom(...ANY_VALUE), fc.double(), fc.string(), fc.anything()),
  });
}

/** `doc` with `value` at `path` as an own, enumerable property (even `__proto__`). */
export function withValue(doc: Record<string, unknown>, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object')
      Object.defineProperty(at, key, { value: {}, enumerable: true, writable: true, configurable: true });
    at = at[key] as Record<string | number, unknown>;
  }
  Object.defineProperty(at, path[path.length - 1], {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}
