/**
 * The rules for ids and names (host names, nodenames, instance uuids, request ids, plan ids):
 * well-formed Unicode, no control characters, bounded length. A lone surrogate makes
 * encodeURIComponent throw and DynamoDB/SQS refuse the string; a control character can split an
 * HTTP header or a log line. Refused at the edge, neither can reach a reader.
 *
 * No zod here: the serve detector's worker thread checks ids with these without loading it.
 */

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
  // Most ids are printable ASCII, which holds neither; the Unicode-class regexes cost far more.
  if (printableAscii(value)) return undefined;
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    return `is not well-formed Unicode (a lone surrogate ${codePoint(lone[0])} at ${lone.index}): ${excerpt(value)}`;
  }
  const control = CONTROL.exec(value);
  if (control)
    return `contains a control character (${codePoint(control[0])} at ${control.index}): ${excerpt(value)}`;
  return undefined;
}

function printableAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
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
