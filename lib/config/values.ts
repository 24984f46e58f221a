import type { OptionSpec } from './options.js';

/** A value that does not fit its option; the message completes "expected …". */
export class BadValue extends Error {}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);
const INTEGER = /^[+-]?\d+$/;
// Python's float() syntax, minus inf/nan (a multiplier of inf would poison every weight).
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Converts one raw value (an INI string, or a native JSON value) to the option's type the way
 * oslo.config does. Throws BadValue describing what was expected.
 */
export function parseOptionValue(raw: unknown, spec: OptionSpec): unknown {
  const nullable = spec.default === null;
  if (raw === null || (nullable && typeof raw === 'string' && raw.trim() === '')) {
    // oslo turns an empty int/float into None (and Nova treats an empty string like None); only
    // options that default to None can hold it.
    if (nullable) return null;
    throw new BadValue(expected(spec));
  }
  switch (spec.type) {
    case 'bool':
      return parseBool(raw, spec);
    case 'int':
    case 'float': {
      const n = parseNumber(raw, spec);
      return n === 0 && spec.zeroIsUnset ? null : n;
    }
    case 'string':
      if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      throw new BadValue(expected(spec));
    case 'list':
      return parseList(raw, spec);
    case 'multistring':
      return parseMulti(raw, spec);
  }
}

function parseBool(raw: unknown, spec: OptionSpec): boolean {
  if (typeof raw === 'boolean') return raw;
  const word = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (word !== undefined && TRUE_WORDS.has(word)) return true;
  if (word !== undefined && FALSE_WORDS.has(word)) return false;
  throw new BadValue(expected(spec));
}

function parseNumber(raw: unknown, spec: OptionSpec): number {
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (text !== undefined && (spec.type === 'int' ? INTEGER : FLOAT).test(text)) n = Number(text);
  else throw new BadValue(expected(spec));
  if (!Number.isFinite(n) || (spec.type === 'int' && !Number.isInteger(n)))
    throw new BadValue(expected(spec));
  if (spec.min !== undefined && n < spec.min) throw new BadValue(expected(spec));
  return n;
}

/** oslo's ListOpt: comma-separated, items stripped; an empty string is an empty list. */
export function splitList(text: string): string[] {
  const trimmed = text.trim().replace(/,$/, '');
  if (trimmed === '') return [];
  return trimmed.split(',').map((item) => item.trim());
}

function parseList(raw: unknown, spec: OptionSpec): string[] {
  if (typeof raw === 'string') return splitList(raw);
  if (Array.isArray(raw) && raw.every((item) => typeof item === 'string')) return raw.map((s) => s.trim());
  throw new BadValue(expected(spec));
}

function parseMulti(raw: unknown, spec: OptionSpec): string[] {
  const items = typeof raw === 'string' ? [raw] : raw;
  if (Array.isArray(items) && items.every((item) => typeof item === 'string')) {
    // An empty line (`available_filters =`) adds nothing rather than a filter named "".
    return items.map((s) => s.trim()).filter((s) => s !== '');
  }
  throw new BadValue(expected(spec));
}

/** What a value of this option must look like, for error messages. */
export function expected(spec: OptionSpec): string {
  const orNone = spec.default === null ? ' (or empty for none)' : '';
  const atLeast = spec.min !== undefined ? ` >= ${spec.min}` : '';
  switch (spec.type) {
    case 'bool':
      return 'a boolean (true/false, yes/no, on/off, 1/0)';
    case 'int':
      return `an integer${atLeast}${orNone}`;
    case 'float':
      return `a number${atLeast}${orNone}`;
    case 'string':
      return `a string${orNone}`;
    case 'list':
      return 'a comma-separated list (in JSON: a string or an array of strings)';
    case 'multistring':
      return 'one or more strings (repeat the key in INI; an array in JSON)';
  }
}
