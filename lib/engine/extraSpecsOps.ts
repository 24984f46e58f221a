import { RequestError } from '../model/errors.js';
import { pyFloat } from './aggregates.js';

/**
 * Nova's extra-spec matching grammar (`nova/scheduler/filters/extra_specs_ops.py`): a host or
 * aggregate value against a flavor requirement such as `>= 4`, `<in> avx`, `<or> a <or> b` or
 * `s== foo`. Values are strings: callers pass Python's `str()` of the capability.
 */

/** A requirement compiled once per request; call it once per host value. */
export type ExtraSpecMatcher = (value: string | null | undefined) => boolean;

/** Python's `str.isspace()` (JS `\s` differs: it has U+FEFF but lacks U+001C-U+001F and U+0085). */
function isPySpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x1f) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Python's `str.split()` with no argument: runs of whitespace separate, no empty words. */
export function pySplit(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || isPySpace(text.charCodeAt(i));
    if (space && start >= 0) {
      words.push(text.slice(start, i));
      start = -1;
    } else if (!space && start < 0) start = i;
  }
  return words;
}

/**
 * Python's string ordering (code points). JS compares UTF-16 units, which puts astral characters
 * (surrogate pairs) before U+E000-U+FFFF; Python puts them after.
 */
export function comparePyStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y;
    return x - y;
  }
  return a.length - b.length;
}

/** `label` names the requirement in errors, e.g. "flavor extra spec hw:x='>= 2'". */
type Operator = (value: string, operand: string, label: string) => boolean;

function numeric(test: (v: number, r: number) => boolean): Operator {
  return (value, operand, label) => {
    // Python evaluates float(value) first, so a bad value is reported before a bad operand.
    const v = pyFloat(value);
    if (v === undefined) throw notANumber(value, value, label);
    const r = pyFloat(operand);
    if (r === undefined) throw notANumber(operand, value, label);
    return test(v, r);
  };
}

function notANumber(text: string, value: string, label: string): RequestError {
  return new RequestError(`${label} compares numbers, but '${text}' is not a number (host value '${value}')`);
}

const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  // '=' means "at least", not equality.
  ['=', numeric((v, r) => v >= r)],
  ['==', numeric((v, r) => v === r)],
  ['!=', numeric((v, r) => v !== r)],
  ['>=', numeric((v, r) => v >= r)],
  ['<=', numeric((v, r) => v <= r)],
  ['s==', (v, r) => v === r],
  ['s!=', (v, r) => v !== r],
  ['s<', (v, r) => comparePyStrings(v, r) < 0],
  ['s<=', (v, r) => comparePyStrings(v, r) <= 0],
  ['s>', (v, r) => comparePyStrings(v, r) > 0],
  ['s>=', (v, r) => comparePyStrings(v, r) >= 0],
  // Substring tests on the value's text, not membership in a list.
  ['<in>', (v, r) => v.includes(r)],
]);

/**
 * Compiles a requirement once per request. The matcher throws RequestError where Nova would raise;
 * `label` names the requirement in that error (filters pass the extra spec key too).
 */
export function compileExtraSpec(req: string, label = `extra spec requirement '${req}'`): ExtraSpecMatcher {
  const words = pySplit(req);
  const op = words.shift();
  if (op === '<or>') return orMatcher(words, label);
  const method = op === undefined ? undefined : op === '<all-in>' ? 'all-in' : OPERATORS.get(op);
  // No operator: the whole requirement, spaces and all, must equal the value.
  if (method === undefined) return (value) => value === req;
  if (words.length === 0) return () => false;
  if (method === 'all-in') return (value) => value != null && words.every((w) => value.includes(w));
  const operand = words[0]; // words after the first operand are ignored, as in Nova
  return (value) => value != null && method(value, operand, label);
}

/** `<or> v1 <or> v2 ...`: the words at even positions are the alternatives; the others are skipped unread. */
function orMatcher(alternatives: string[], label: string): ExtraSpecMatcher {
  return (value) => {
    if (value == null) return false;
    if (alternatives.length === 0) {
      throw new RequestError(`${label} has no value after '<or>' (host value '${value}')`);
    }
    for (let i = 0; i < alternatives.length; i += 2) if (alternatives[i] === value) return true;
    return false;
  };
}

/** Nova's `extra_specs_ops.match(value, req)`. Prefer compileExtraSpec on hot paths. */
export function matchExtraSpec(value: string | null | undefined, req: string): boolean {
  return compileExtraSpec(req)(value);
}

/**
 * Python's `str()` of a capability. JS numbers do not keep Python's int/float distinction: integral
 * numbers print without a fraction (`str(1)` = '1'; a Python float 1.0 would print '1.0').
 */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** Python's `repr()` for JSON-like values: lists and dicts print as Python would render them. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'bigint') return value.toString();
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
