/**
 * Daily blackout windows ("HH:MM-HH:MM" in an IANA time zone) in which no migration starts, e.g.
 * the 9:00, 12:00 and 20:00 peaks. Minutes are local wall-clock minutes of the day; a window whose
 * end is before its start wraps midnight.
 */

const MINUTES_PER_DAY = 24 * 60;
const WINDOW = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/;

export interface BlackoutWindow {
  /** As configured, for explanations. */
  text: string;
  /** Local minute of the day the window starts (inclusive). */
  start: number;
  /** Local minute of the day it ends (exclusive); 1440 for "24:00". */
  end: number;
}

/**
 * Parses "HH:MM-HH:MM". Returns the window, or a sentence saying what is wrong.
 * @example parseBlackoutWindow('11:30-13:00') // { text, start: 690, end: 780 }
 */
export function parseBlackoutWindow(text: string): BlackoutWindow | string {
  const match = WINDOW.exec(text.trim());
  if (!match) return `"${text}" is not HH:MM-HH:MM (24-hour clock, e.g. 11:30-13:00)`;
  const [, h1, m1, h2, m2] = match.map(Number);
  if (h1 > 23 || m1 > 59) return `"${text}" starts at an impossible time (hours 00-23, minutes 00-59)`;
  const endOk = (h2 <= 23 && m2 <= 59) || (h2 === 24 && m2 === 0);
  if (!endOk) return `"${text}" ends at an impossible time (hours 00-23 or 24:00, minutes 00-59)`;
  const start = h1 * 60 + m1;
  const end = h2 * 60 + m2;
  if (start === end % MINUTES_PER_DAY) {
    return end === MINUTES_PER_DAY
      ? `"${text}" covers the whole day; no migration could ever start`
      : `"${text}" is empty (start equals end)`;
  }
  return { text: text.trim(), start, end };
}

/** True when the windows together cover every minute of the day (then nothing could ever start). */
export function coversWholeDay(windows: readonly BlackoutWindow[]): boolean {
  const covered = new Uint8Array(MINUTES_PER_DAY);
  for (const w of windows) {
    for (let m = w.start; m !== w.end % MINUTES_PER_DAY; m = (m + 1) % MINUTES_PER_DAY) covered[m] = 1;
  }
  return covered.every((c) => c === 1);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The local wall-clock minute of the day of `at` in `timeZone`. */
export function localMinuteOfDay(at: Date, timeZone: string): number {
  let hour = 0;
  let minute = 0;
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return hour * 60 + minute;
}

function contains(w: BlackoutWindow, minute: number): boolean {
  return w.start < w.end ? minute >= w.start && minute < w.end : minute >= w.start || minute < w.end;
}

/** The window `at` falls in, or undefined when a migration may start at `at`. */
export function blackoutAt(
  at: Date,
  windows: readonly BlackoutWindow[],
  timeZone: string,
): BlackoutWindow | undefined {
  if (windows.length === 0) return undefined;
  const minute = localMinuteOfDay(at, timeZone);
  return windows.find((w) => contains(w, minute));
}

/**
 * The earliest time at or after `at` outside every window: `at` itself when it is allowed.
 * Adjacent or overlapping windows are crossed one after another. Exact across DST changes: a jump
 * that a DST shift made overshoot is searched back to the first minute outside the window.
 */
export function nextAllowedStart(at: Date, windows: readonly BlackoutWindow[], timeZone: string): Date {
  let t = at.getTime();
  // Each step leaves one window, or one repeated (fall-back) hour of it; more means they cover the day.
  for (let step = 0; step <= 2 * windows.length + 1; step++) {
    const w = blackoutAt(new Date(t), windows, timeZone);
    if (!w) return new Date(t);
    const inside = (ms: number) => contains(w, localMinuteOfDay(new Date(ms), timeZone));
    const minutesLeft = (w.end - localMinuteOfDay(new Date(t), timeZone) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
    const next = t - (t % 60_000) + (minutesLeft || MINUTES_PER_DAY) * 60_000;
    t = inside(next) ? next : firstMinuteOutside(t - (t % 60_000), next, inside);
  }
  throw new RangeError('blackout windows cover the whole day; no migration can ever start');
}

/** Binary search for the first whole minute in (from, to] that is outside; `to` is outside. */
function firstMinuteOutside(from: number, to: number, inside: (ms: number) => boolean): number {
  let lo = from;
  let hi = to;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (inside(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}
