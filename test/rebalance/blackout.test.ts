import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BlackoutWindow,
  blackoutAt,
  coversWholeDay,
  nextAllowedStart,
  parseBlackoutWindow,
} from '../../lib/rebalance/blackout.js';

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

function windows(...texts: string[]): BlackoutWindow[] {
  return texts.map((t) => parseBlackoutWindow(t) as BlackoutWindow);
}

describe('parseBlackoutWindow', () => {
  it.each([
    ['11:30-13:00', { text: '11:30-13:00', start: 690, end: 780 }],
    ['22:00-02:00', { text: '22:00-02:00', start: 1320, end: 120 }],
    ['18:00-24:00', { text: '18:00-24:00', start: 1080, end: 1440 }],
    [' 08:00-09:00 ', { text: '08:00-09:00', start: 480, end: 540 }],
  ])('parses %s', (text, window) => {
    // Act / Assess
    expect(parseBlackoutWindow(text)).toEqual(window);
  });

  it.each([
    ['8:00-9:00', 'is not HH:MM-HH:MM'],
    ['08:00 - 09:00', 'is not HH:MM-HH:MM'],
    ['24:00-01:00', 'starts at an impossible time'],
    ['08:60-09:00', 'starts at an impossible time'],
    ['08:00-24:30', 'ends at an impossible time'],
    ['09:00-09:00', 'is empty'],
    ['00:00-24:00', 'covers the whole day'],
  ])('rejects %s', (text, problem) => {
    // Act / Assess
    expect(parseBlackoutWindow(text)).toContain(problem);
  });

  it.each([
    [['00:00-12:00', '12:00-24:00'], true],
    [['22:00-12:00', '11:00-22:00'], true],
    [['00:00-12:00', '12:01-24:00'], false],
  ])('knows whether %j cover the whole day', (texts, whole) => {
    // Act / Assess
    expect(coversWholeDay(windows(...texts))).toBe(whole);
  });
});

describe('blackoutAt', () => {
  // 12:00Z is 21:00 in Tokyo (UTC+9, no DST).
  it.each([
    ['inside a window in the configured zone', '2026-12-01T12:00:00Z', ['20:30-21:30'], '20:30-21:30'],
    ['at the exclusive end of a window', '2026-12-01T12:30:00Z', ['20:30-21:30'], undefined],
    ['at the inclusive start of a window', '2026-12-01T11:30:00Z', ['20:30-21:30'], '20:30-21:30'],
    ['before midnight in a wrapping window', '2026-12-01T14:30:00Z', ['22:00-02:00'], '22:00-02:00'],
    ['after midnight in a wrapping window', '2026-12-01T16:59:00Z', ['22:00-02:00'], '22:00-02:00'],
    ['outside every window', '2026-12-01T17:00:00Z', ['22:00-02:00', '08:00-09:00'], undefined],
  ])('finds %s', (_case, iso, texts, found) => {
    // Act
    const w = blackoutAt(new Date(iso), windows(...texts), 'Asia/Tokyo');
    // Assess
    expect(w?.text).toBe(found);
  });
});

describe('nextAllowedStart', () => {
  it.each([
    ['now when no window applies', '2026-12-01T10:00:00Z', ['20:30-21:30'], '2026-12-01T10:00:00.000Z'],
    ['the end of the current window', '2026-12-01T12:00:30Z', ['20:30-21:30'], '2026-12-01T12:30:00.000Z'],
    [
      'the end of chained windows',
      '2026-12-01T12:00:00Z',
      ['20:30-21:30', '21:30-22:00'],
      '2026-12-01T13:00:00.000Z',
    ],
    [
      'the end of a window wrapping midnight',
      '2026-12-01T14:00:00Z',
      ['22:00-02:00'],
      '2026-12-01T17:00:00.000Z',
    ],
  ])('gives %s', (_case, iso, texts, expected) => {
    // Act / Assess
    expect(nextAllowedStart(new Date(iso), windows(...texts), 'Asia/Tokyo').toISOString()).toBe(expected);
  });

  it.each([
    // New York springs forward on 2026-03-08 at 02:00 EST to 03:00 EDT.
    [
      'a local end after the spring-forward gap',
      '2026-03-08T06:30:00Z',
      '01:00-03:30',
      '2026-03-08T07:30:00.000Z',
    ],
    [
      'the end of the spring-forward gap when the local end does not exist',
      '2026-03-08T06:30:00Z',
      '01:00-02:30',
      '2026-03-08T07:00:00.000Z',
    ],
    // ... and falls back on 2026-11-01 at 02:00 EDT to 01:00 EST.
    [
      'the first local end on the fall-back night',
      '2026-11-01T04:45:00Z',
      '00:30-01:30',
      '2026-11-01T05:30:00.000Z',
    ],
    [
      'the end of a window spanning the repeated hour',
      '2026-11-01T04:45:00Z',
      '00:30-02:30',
      '2026-11-01T07:30:00.000Z',
    ],
  ])('gives %s across DST', (_case, iso, text, expected) => {
    // Act / Assess
    expect(nextAllowedStart(new Date(iso), windows(text), 'America/New_York').toISOString()).toBe(expected);
  });

  it('gives an allowed time whose previous minute is blacked out (property)', () => {
    // Prepare
    const clock = fc.integer({ min: 0, max: 24 * 60 - 1 });
    const window = fc
      .tuple(clock, clock)
      .filter(([a, b]) => a !== b)
      .map(([a, b]) => `${hhmm(a)}-${hhmm(b)}`);
    const zone = fc.constantFrom('UTC', 'Asia/Tokyo', 'America/New_York', 'Australia/Lord_Howe');
    const instant = fc.integer({
      min: Date.parse('2026-01-01T00:00:00Z'),
      max: Date.parse('2027-01-01T00:00:00Z'),
    });
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), zone, instant, (texts, tz, ms) => {
        const ws = windows(...texts);
        fc.pre(!coversWholeDay(ws));
        const at = new Date(ms);
        // Act
        const next = nextAllowedStart(at, ws, tz);
        // Assess
        expect(next.getTime()).toBeGreaterThanOrEqual(ms);
        expect(blackoutAt(next, ws, tz)).toBeUndefined();
        if (next.getTime() > ms) expect(blackoutAt(new Date(next.getTime() - 60_000), ws, tz)).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses windows that cover the whole day', () => {
    // Act / Assess
    expect(() =>
      nextAllowedStart(new Date('2026-12-01T12:00:00Z'), windows('00:00-12:00', '12:00-24:00'), 'UTC'),
    ).toThrow('cover the whole day');
  });
});
