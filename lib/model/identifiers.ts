/**
 * Ids and names as they enter Placid (host names, nodenames, instance uuids, request ids, plan ids):
 * well-formed Unicode, no control characters, bounded length. A lone surrogate makes
 * encodeURIComponent throw and DynamoDB/SQS refuse the string; a control character can split an
 * HTTP header or a log line. Refused at the edge, neither can reach a reader.
 */
import * as z from 'zod';
import { ValidationError } from './errors.js';

/** Longest id or name; keeps every DynamoDB key built from one well under its size limit. */
export const MAX_IDENTIFIER_LENGTH = 255;

// With the u flag a paired surrogate is one code point, so \p{Cs} matches only lone halves.
const LONE_SURROGATE = /\p{Cs}/u;
// C0, DEL and C1 controls, plus the Unicode line and paragraph separators (they end lines too).
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/**
 * What is wrong with `value` as an id or name, or undefined when it is fine.
 * @example identifierProblem('node-1\r\n') // 'contains a control character (U+000D at 6)'
 */
export function identifierProblem(
  value: string,
  options: { max?: number; allowEmpty?: boolean } = {},
): string | undefined {
  const max = options.max ?? MAX_IDENTIFIER_LENGTH;
  if (value.length === 0) return options.allowEmpty ? undefined : 'must not be empty';
  if (value.length > max) return `is ${value.length} characters long; at most ${max} are allowed`;
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    return `is not well-formed Unicode (a lone surrogate ${codePoint(lone[0])} at ${lone.index}): ${excerpt(value)}`;
  }
  const control = CONTROL.exec(value);
  if (control)
    return `contains a control character (${codePoint(control[0])} at ${control.index}): ${excerpt(value)}`;
  return undefined;
}

/** A zod string that must be a valid id or name (see identifierProblem). */
export function identifier(options: { max?: number; allowEmpty?: boolean } = {}) {
  const max = options.max ?? MAX_IDENTIFIER_LENGTH;
  // min/max as zod checks as well, so the exported JSON Schema carries the length limits.
  return z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'expected string') })
    .min(options.allowEmpty ? 0 : 1, 'must be a non-empty string')
    .max(max, `must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      if (value.length === 0 || value.length > max) return;
      const problem = identifierProblem(value, options);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    });
}

/**
 * Throws a ValidationError naming `field` when `value` is not a valid id (for callers outside a
 * schema, such as the CLI's plan ids).
 * @example checkIdentifier('placid approve', 'plan_id', argv[0])
 */
export function checkIdentifier(source: string, field: string, value: string, max?: number): string {
  const problem = identifierProblem(value, { max });
  if (problem) throw new ValidationError(source, [{ path: field, message: problem }]);
  return value;
}

/**
 * `value` with lone surrogates and control characters replaced by U+FFFD: for readers that must
 * cope with strings stored before these checks existed (keys, headers, log lines).
 */
export function wellFormedText(value: string): string {
  return value.replace(/[\p{Cs}\p{Cc}\u2028\u2029]/gu, '\uFFFD');
}

/** `value` with lone surrogates replaced by U+FFFD (String.prototype.toWellFormed, which ES2023 lacks). */
export function toWellFormed(value: string): string {
  return value.replace(/\p{Cs}/gu, '\uFFFD');
}

/** The value as an operator can read it: bad characters shown as U+FFFD, at most 40 characters. */
function excerpt(value: string): string {
  const clean = wellFormedText(value);
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
