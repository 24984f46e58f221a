/** Durations in the config, written as Prometheus writes them: `90s`, `5m`, `1h30m`, `500ms`. */
import * as z from 'zod';

import { parseDuration, UNIT_MS } from './durationText.js';

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
