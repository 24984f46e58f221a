/**
 * The advisory answer as sent: capped well under Lambda's 6 MB response limit, whatever the
 * request held (100,000 candidates with 255-character names would make an answer of tens of MB).
 * Cut from the end of each list, and said so in `omitted`.
 */
import type { AdvisoryAnswer } from './advisory.js';

/** Entries kept of each list of candidates Placid did not judge (unknown, refused). */
export const UNJUDGED_LIST_LIMIT = 1000;
/** The answer's JSON at most: 4 MiB, well under the 6 MB a Lambda response may hold. */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;

/** Entries cut from the end of each list; candidates cut were judged but are not in the answer. */
export interface OmittedEntries {
  candidates: number;
  unknown: number;
  refused: number;
}

/**
 * The answer's JSON text within `maxBytes`: `unknown` and `refused` keep their first
 * UNJUDGED_LIST_LIMIT entries, then verdicts are cut from the end until it fits. When anything is
 * cut the answer carries `omitted` with the count per list: a caller treats a candidate missing
 * from the answer as unknown.
 * @example const body = cappedAnswerJson(outcome.answer);
 */
export function cappedAnswerJson(answer: AdvisoryAnswer, maxBytes = ANSWER_MAX_BYTES): string {
  const omitted: OmittedEntries = {
    candidates: 0,
    unknown: Math.max(0, answer.unknown.length - UNJUDGED_LIST_LIMIT),
    refused: Math.max(0, answer.refused.length - UNJUDGED_LIST_LIMIT),
  };
  let capped: AdvisoryAnswer & { omitted?: OmittedEntries } =
    omitted.unknown + omitted.refused > 0
      ? {
          ...answer,
          unknown: answer.unknown.slice(0, UNJUDGED_LIST_LIMIT),
          refused: answer.refused.slice(0, UNJUDGED_LIST_LIMIT),
          omitted,
        }
      : answer;
  for (;;) {
    const text = JSON.stringify(capped);
    // A UTF-16 unit is at most 3 UTF-8 bytes: most answers are measured without encoding them.
    const bytes = text.length * 3 <= maxBytes ? text.length : Buffer.byteLength(text, 'utf8');
    const left = capped.candidates.length + capped.unknown.length + capped.refused.length;
    if (bytes <= maxBytes || left === 0) return text;
    capped = { ...cutOnce(capped, answer, omitted, maxBytes / bytes), omitted };
  }
}

/**
 * One cut: refused names first (a refused name may be megabytes long), then verdicts in
 * proportion to the excess, then unknown names.
 */
function cutOnce(
  capped: AdvisoryAnswer,
  whole: AdvisoryAnswer,
  omitted: OmittedEntries,
  ratio: number,
): AdvisoryAnswer {
  const half = (n: number) => Math.floor(n / 2);
  if (capped.refused.length > 0) {
    const refused = capped.refused.slice(0, half(capped.refused.length));
    omitted.refused = whole.refused.length - refused.length;
    return { ...capped, refused };
  }
  if (capped.candidates.length > 0) {
    const keep = Math.floor(capped.candidates.length * Math.min(0.9, ratio * 0.95));
    omitted.candidates = whole.candidates.length - keep;
    return { ...capped, candidates: capped.candidates.slice(0, keep) };
  }
  const unknown = capped.unknown.slice(0, half(capped.unknown.length));
  omitted.unknown = whole.unknown.length - unknown.length;
  return { ...capped, unknown };
}
