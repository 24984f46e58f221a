/** Checks on a report message that a per-field schema cannot make: nesting, duplicates, clock skew. */
import type { Issue } from './errors.js';
import { formatPath } from './path.js';

/** Deeper JSON than this is hostile or broken; real reports nest about 6 levels. */
export const MAX_NESTING_DEPTH = 32;
/** A timestamp further ahead of the receiver's clock than this is clock skew, not data. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Finds the first value nested deeper than `limit`, without recursion (a hostile message must not
 * overflow the stack). Returns its path, or undefined when the document is shallow enough.
 */
export function tooDeepPath(root: unknown, limit = MAX_NESTING_DEPTH): string | undefined {
  // Nearly every message is shallow: a walk that builds no paths says so, and only a deep one pays
  // for naming its path (that walk allocated a path per object, a fifth of parsing a message).
  if (!deeperThan(root, 0, limit)) return undefined;
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= limit) return formatPath(path) || '(root)';
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * True when an object sits `limit` or more levels below `value` (itself at `depth`). It recurses at
 * most `limit` levels, whatever the document's depth, so it cannot overflow the stack either.
 */
function deeperThan(value: unknown, depth: number, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= limit) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value))
    if (deeperThan(child, depth + 1, limit)) return true;
  return false;
}

/** Reports every key seen before in `items`, naming both positions. */
export function duplicateIssues<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  pathOf: (index: number) => string,
  describe: (item: T) => string,
): Issue[] {
  const issues: Issue[] = [];
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, i);
    else issues.push({ path: pathOf(i), message: `duplicate ${describe(item)} (first at ${pathOf(seen)})` });
  });
  return issues;
}

/** An issue when `ts` is further ahead of `now` than the allowed clock skew. */
export function skewIssue(path: string, ts: string | null | undefined, now: Date): Issue | undefined {
  if (ts == null) return undefined;
  const ahead = Date.parse(ts) - now.getTime();
  if (ahead <= MAX_CLOCK_SKEW_MS) return undefined;
  return {
    path,
    message: `${ts} is ${describeDuration(ahead)} ahead of the receiver's clock (${now.toISOString()}); clock skew over ${MAX_CLOCK_SKEW_MS / 60_000} minutes is rejected`,
  };
}

function describeDuration(ms: number): string {
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 2 * 86_400_000) return `${Math.round(ms / 3_600_000)} h`;
  return `${Math.round(ms / 86_400_000)} days`;
}

interface Timed {
  ts: string;
}
interface Report {
  reported_at: string;
  samples: readonly Timed[];
}

/** Clock-skew and duplicate-sample issues of one report at `base` (e.g. `hypervisors[2]`). */
export function reportTimeIssues(report: Report, base: string, now: Date, extra: Issue[] = []): Issue[] {
  const issues = [...extra];
  const skew = skewIssue(`${base}.reported_at`, report.reported_at, now);
  if (skew) issues.push(skew);
  const latest = now.getTime() + MAX_CLOCK_SKEW_MS;
  report.samples.forEach((s, i) => {
    // The path is worded only for a sample skewIssue will refuse (the same test, negated).
    if (Date.parse(s.ts) <= latest) return;
    const sampleSkew = skewIssue(`${base}.samples[${i}].ts`, s.ts, now);
    if (sampleSkew) issues.push(sampleSkew);
  });
  issues.push(
    ...duplicateIssues(
      report.samples,
      (s) => s.ts,
      (i) => `${base}.samples[${i}].ts`,
      (s) => `sample time ${s.ts}`,
    ),
  );
  return issues;
}
