import { describe, expect, it } from 'vitest';
import { reportTimeIssues, tooDeepPath } from '../../lib/model/reportChecks.js';

describe('tooDeepPath', () => {
  it.each([
    ['an object at the limit', { a: { b: { c: {} } } }, 'a.b.c'],
    ['an array at the limit', { a: [{ c: [] }] }, 'a[0].c'],
    ['values below the limit, objects above it', { a: { b: { c: 1, d: 'x', e: null } } }, undefined],
    ['an empty document', {}, undefined],
  ])('with a limit of 3 levels, finds %s', (_name, doc, expected) => {
    // Act
    const path = tooDeepPath(doc, 3);
    // Assess
    expect(path).toBe(expected);
  });
});

describe('reportTimeIssues', () => {
  const now = new Date('2026-12-01T12:00:00.000Z');
  const report = (ts: string) => ({ reported_at: '2026-12-01T11:59:00.000Z', samples: [{ ts }] });

  it.each([
    ['5 minutes ahead', '2026-12-01T12:05:00.000Z', 0],
    ['a millisecond more', '2026-12-01T12:05:00.001Z', 1],
    ['unreadable', 'not a time', 1],
  ])('refuses a sample time only past the allowed skew: %s', (_name, ts, issues) => {
    // Act
    const found = reportTimeIssues(report(ts), 'instances[0]', now);
    // Assess
    expect(found).toHaveLength(issues);
    if (issues > 0) expect(found[0].path).toBe('instances[0].samples[0].ts');
  });
});
