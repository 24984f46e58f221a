import { RequestError } from '../model/errors.js';
import { comparePyStrings, pyFloat, pySplit } from './pyStrings.js';

/**
 * Nova's extra-spec matching grammar (`nova/scheduler/filters/extra_specs_ops.py`): a host or
 * aggregate value against a flavor requirement such as `>= 4`, `<in> avx`, `<or> a <or> b` or
 * `s== foo`. Values are strings: callers pass Python's `str()` of the capability.
 */

/** A requirement compiled once per request; call it once per host value. */
export type ExtraSpecMatcher = (value: string | null | undefined) => boolean;

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
