/** Duration text as Prometheus writes it (no zod here: the CLI parses its options with this at start). */
export const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+)(ms|s|m|h|d)/g;
const WHOLE = /^(?:\d+(?:ms|s|m|h|d))+$/;

/** Milliseconds of a duration like `1h30m`; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit];
  return ms;
}
