/**
 * The checks of the fast validation paths (hostFastPath.ts, requestFastPath.ts), each the exact
 * acceptance of one zod building block of the schemas, for JSON-made values. No zod here.
 */
import { BOUNDS, type Bound } from './boundsTable.js';
import { identifierProblem, isPlainIdentifier } from './identifierRules.js';
import { pyStr } from './pyStr.js';

/** Signals "zod must decide" from deep inside the walk; never escapes this module. */
export const MISS = Symbol('zod decides');
export type Miss = typeof MISS;

/** zod's isPlainObject for JSON-made objects; anything more exotic goes to zod. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

/** `identifier()`: a non-empty, well-formed id (identifierRules.ts). */
export function isId(v: unknown): v is string {
  // The plain case without identifierProblem: its options object and its Unicode checks are what
  // V8 would otherwise compile into every check of an id.
  return (
    typeof v === 'string' && v.length > 0 && (isPlainIdentifier(v) || identifierProblem(v) === undefined)
  );
}

const ALLOW_EMPTY = { allowEmpty: true };

/** `identifier({ allowEmpty: true })`. */
export function isName(v: unknown): v is string {
  return typeof v === 'string' && (isPlainIdentifier(v) || identifierProblem(v, ALLOW_EMPTY) === undefined);
}

export function optional(v: unknown, check: (v: unknown) => boolean): boolean {
  return v === undefined || check(v);
}

export function nullish(v: unknown, check: (v: unknown) => boolean): boolean {
  return v === undefined || v === null || check(v);
}

/** `bounded(name)`: a finite number in the range, whole (safe integer) when the bound says so. */
export function within(v: unknown, b: Bound): boolean {
  return typeof v === 'number' && v >= b.min && v <= b.max && (!b.integer || Number.isSafeInteger(v));
}

/** `bounded(name).int()`: whole even where the bound allows fractions. */
export function whole(v: unknown, b: Bound): boolean {
  return within(v, b) && Number.isSafeInteger(v);
}

/** `bounded('allocation_ratio', { positive: true })`. */
export function isRatio(v: unknown): boolean {
  return within(v, BOUNDS.allocation_ratio) && (v as number) > BOUNDS.allocation_ratio.min;
}

/** `bounded(name).default(fallback)`. */
export function defaulted(v: unknown, b: Bound, fallback = 0): number | Miss {
  if (v === undefined) return fallback;
  return within(v, b) ? (v as number) : MISS;
}

export function isEmptyRecord(v: unknown): boolean {
  const keys = recordKeys(v);
  return keys !== MISS && keys.length === 0;
}

/** A record's own keys as zod's z.record sees them, or MISS when zod might see more or less. */
export function recordKeys(v: unknown): string[] | Miss {
  if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return MISS;
  const keys = Object.keys(v);
  for (const k of keys) if (k === '__proto__' || k === 'constructor' || v[k] === undefined) return MISS;
  return keys;
}

/** `z.record(z.string(), novaString)`: strings kept, numbers and booleans as Python's str(). */
export function novaStrings(v: unknown): Record<string, string> | Miss {
  const keys = recordKeys(v);
  if (keys === MISS) return MISS;
  const src = v as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const k of keys) {
    const value = src[k];
    if (typeof value === 'string') out[k] = value;
    else if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
      out[k] = pyStr(value);
    else return MISS;
  }
  return out;
}

/** `z.array(name)`: a fresh array of valid names. */
export function names(v: unknown): string[] | Miss {
  if (!Array.isArray(v)) return MISS;
  const out: string[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const s = v[i];
    if (!isName(s)) return MISS;
    out[i] = s;
  }
  return out;
}

export function isBoolean(v: unknown): v is boolean {
  return typeof v === 'boolean';
}

/** True when every key of `o` is one the schema reads (z.object would drop others; zod decides then). */
export function knownKeys(o: Record<string, unknown>, known: ReadonlySet<string>): boolean {
  for (const key in o) if (!known.has(key) || o[key] === undefined) return false;
  return true;
}

/** `z.array(name)`, without building the copy. */
export function validNames(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isName(v[i])) return false;
  return true;
}

/** `z.record(z.string(), novaString)`, without building the copy. */
export function validNovaStrings(v: unknown): boolean {
  const keys = recordKeys(v);
  if (keys === MISS) return false;
  for (const k of keys) {
    const value = (v as Record<string, unknown>)[k];
    if (
      !(
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value))
      )
    )
      return false;
  }
  return true;
}
