/** Durations in the config, written as Prometheus writes them: `90s`, `5m`, `1h30m`, `500ms`. */
import * as z from 'zod';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+)(ms|s|m|h|d)/g;
const WHOLE = /^(?:\d+(?:ms|s|m|h|d))+$/;

/** Milliseconds of a duration like `1h30m`; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit];
  return ms;
}

/** A zod field for a duration: accepts `30s`-style text, outputs milliseconds (> 0). */
export const durationField = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a duration like 30s, 5m or 1h30m, got ${JSON.stringify(text)}`,
    });
    return z.NEVER;
  }
  return ms;
});

/** Back to the shortest text, for PromQL range selectors (`[300s]` and `[5m]` mean the same). */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
