import { comparePyStrings } from './pyStrings.js';

/**
 * Python's semantics for JSON-like values (None, bool, number, str, list, dict) where Nova's
 * behaviour depends on them: truthiness, `==`, ordering, `str()` and `repr()`. `undefined` and
 * `null` both stand for None.
 */

/** A netaddr IPAddress (Nova's `$host_ip`): equal only to another IPAddress, never to a string. */
export class PyIPAddress {
  constructor(readonly address: string) {}
}

/** Where Python would raise (TypeError, AttributeError) evaluating an expression. */
export class PythonError extends Error {}

/** Python's TypeError for an ordering between values it cannot order (e.g. str and int). */
export class UnorderableError extends PythonError {
  constructor(
    readonly left: unknown,
    readonly right: unknown,
    op: string,
  ) {
    super(`cannot compare ${pythonRepr(left)} ${op} ${pythonRepr(right)}`);
  }
}

/** A Python dict: a plain JSON object (not a list, not an IPAddress). */
export function isPyDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyIPAddress);
}

/** Python truthiness: None, False, 0, '', [] and {} are false (NaN is true). */
export function pyTruthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v == null) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyIPAddress) return !/^[0.:]*$/.test(v.address); // netaddr: the all-zero address is false
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return Boolean(v);
}

const isNumeric = (v: unknown): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';

/** Python's `==`: booleans are numbers, str never equals a number, lists and dicts compare by content. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a instanceof PyIPAddress || b instanceof PyIPAddress) {
    return a instanceof PyIPAddress && b instanceof PyIPAddress && a.address === b.address;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]))
    );
  }
  if (isPyDict(a) && isPyDict(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]))
    );
  }
  return false;
}

/**
 * Python's ordering of `a` and `b` as a sign (NaN when a number is NaN: every comparison is then
 * false). Throws UnorderableError where Python raises TypeError; `op` names the comparison in it.
 */
export function pyCompare(a: unknown, b: unknown, op: string): number {
  if (isNumeric(a) && isNumeric(b)) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  }
  if (typeof a === 'string' && typeof b === 'string') return comparePyStrings(a, b);
  if (a instanceof PyIPAddress && b instanceof PyIPAddress) return comparePyStrings(a.address, b.address);
  if (Array.isArray(a) && Array.isArray(b)) {
    const i = a.findIndex((x, k) => k >= b.length || !pyEquals(x, b[k]));
    return i < 0 || i >= b.length ? a.length - b.length : pyCompare(a[i], b[i], op);
  }
  throw new UnorderableError(a, b, op);
}

/**
 * Python's `str()`. JS numbers do not keep Python's int/float distinction: integral numbers print
 * without a fraction (`str(1)` = '1'; a Python float 1.0 would print '1.0').
 */
export function pythonStr(value: unknown): string {
  if (value instanceof PyIPAddress) return value.address;
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr()` for JSON-like values: lists and dicts print as Python would render them. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PyIPAddress) return `IPAddress('${value.address}')`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

function reprNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  // Python switches to exponent notation below 1e-4 (JS only below 1e-6) and pads it to 2 digits.
  if (Math.abs(n) < 1e-4) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}

/** Python's quoting: single quotes unless the text has one and no double quote; escapes for control characters. */
function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xad)
      out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}
