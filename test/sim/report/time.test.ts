import { describe, expect, it } from 'vitest';
import { scenarioClock } from '../../../lib/sim/report/time.js';

describe('scenarioClock', () => {
  it.each([
    ['Asia/Tokyo', '2025-01-06 09:05', '09:05', 'Jan 6', 540],
    ['America/New_York', '2025-01-05 19:05', '19:05', 'Jan 5', -300],
    ['Asia/Kolkata', '2025-01-06 05:35', '05:35', 'Jan 6', 330],
  ])('reads an instant in %s', (zone, dateTime, time, day, offset) => {
    const clock = scenarioClock(zone);
    const at = '2025-01-06T00:05:00Z';

    expect([clock.dateTime(at), clock.time(at), clock.day(at), clock.offsetMinutes(at)]).toEqual([
      dateTime,
      time,
      day,
      offset,
    ]);
  });

  it('follows daylight saving time', () => {
    const clock = scenarioClock('Europe/Berlin');

    expect(clock.offsetMinutes('2025-01-15T12:00:00Z')).toBe(60);
    expect(clock.offsetMinutes('2025-07-15T12:00:00Z')).toBe(120);
  });
});
