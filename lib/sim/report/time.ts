/**
 * Times in the scenario's time zone: the load curve and blackout windows are local, so an operator
 * reads the report in local time too.
 */

export interface ZoneClock {
  timeZone: string;
  /** `09:30` */
  time(at: Date | string): string;
  /** `Jan 6` */
  day(at: Date | string): string;
  /** `2025-01-06 09:30` */
  dateTime(at: Date | string): string;
  /** Minutes the zone is ahead of UTC at `at` (540 for Asia/Tokyo). */
  offsetMinutes(at: Date | string): number;
}

import { ValidationError } from '../../model/errors.js';

const toDate = (at: Date | string): Date => (typeof at === 'string' ? new Date(at) : at);

/** The clock of a result's scenario; an unknown zone is a clear error, not Intl's RangeError. */
export function scenarioClock(timeZone: string): ZoneClock {
  try {
    return zoneClock(timeZone);
  } catch (cause) {
    if (!(cause instanceof RangeError)) throw cause;
    throw new ValidationError('simulation result', [
      { path: 'scenario.timezone', message: `unknown IANA time zone "${timeZone}"` },
    ]);
  }
}

function zoneClock(timeZone: string): ZoneClock {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const day = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric' });
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const fields = (at: Date | string) => {
    const out: Record<string, number> = {};
    for (const p of parts.formatToParts(toDate(at))) if (p.type !== 'literal') out[p.type] = Number(p.value);
    return out;
  };
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    timeZone,
    time: (at) => time.format(toDate(at)),
    day: (at) => day.format(toDate(at)),
    dateTime(at) {
      const f = fields(at);
      return `${f.year}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)}`;
    },
    offsetMinutes(at) {
      const f = fields(at);
      const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
      const instant = Math.floor(toDate(at).getTime() / 1000) * 1000;
      return Math.round((wall - instant) / 60_000);
    },
  };
}
