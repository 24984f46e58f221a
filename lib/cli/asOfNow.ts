/**
 * `placid ingest --as-of-now`: the shipped example reports carry fixed timestamps, and a host whose
 * newest report is older than service_down_time reads as down. This moves every timestamp in the
 * input by one amount, so the newest one becomes `now` and the rest keep their distances: the
 * examples give the same results whenever they are ingested.
 */
import type { InputMessage } from './ingestInput.js';

/** Keys whose values are times: `ts`, and every `…_at` (reported_at, last_migrated_at, …). */
const isTimeKey = (key: string) => key === 'ts' || key.endsWith('_at');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** The messages with their times moved so the newest is `now`; bodies that are not JSON pass as they are. */
export function rebaseToNow(messages: InputMessage[], now: number): InputMessage[] {
  const parsed = messages.map((m) => parse(m.body));
  let newest = Number.NEGATIVE_INFINITY;
  for (const value of parsed) visitTimes(value, (t) => (newest = Math.max(newest, t)));
  if (!Number.isFinite(newest)) return messages;
  const shift = now - newest;
  return messages.map((m, i) => {
    const value = parsed[i];
    if (value === undefined) return m;
    visitTimes(value, (t) => new Date(t + shift).toISOString().replace('.000Z', 'Z'));
    return { ...m, body: JSON.stringify(value) };
  });
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Calls `f` with each time (ms) in `value`; a string `f` returns replaces the time in place. */
function visitTimes(value: unknown, f: (ms: number) => unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) visitTimes(v, f);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if (typeof v === 'string' && isTimeKey(key) && ISO.test(v)) {
      const ms = Date.parse(v);
      if (Number.isNaN(ms)) continue;
      const replaced = f(ms);
      if (typeof replaced === 'string') record[key] = replaced;
    } else {
      visitTimes(v, f);
    }
  }
}
