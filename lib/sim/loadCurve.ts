/**
 * Daily load curves: `{at: "HH:MM", level}` points, linearly interpolated between neighbours and
 * wrapping at midnight (after the last point the curve heads back to the first). Tabulated per
 * minute of the day once, so the world reads one array element per VM per minute.
 */
import { localMinuteOfDay } from '../rebalance/blackout.js';
import { type CurvePoint, minuteOf } from './scenarioSchema.js';

const DAY = 1440;

/** The curve's level for each minute of the local day (index 0 = 00:00). */
export function tabulateCurve(points: readonly CurvePoint[]): Float64Array {
  const sorted = points
    .map((p) => ({ minute: minuteOf(p.at) % DAY, level: p.level }))
    .sort((a, b) => a.minute - b.minute);
  const table = new Float64Array(DAY);
  for (let m = 0; m < DAY; m++) {
    // The last point at or before m (wrapping to the day before), and the next one after it.
    let i = sorted.length - 1;
    while (i >= 0 && sorted[i].minute > m) i--;
    const prev =
      i >= 0 ? sorted[i] : { ...sorted[sorted.length - 1], minute: sorted[sorted.length - 1].minute - DAY };
    const nextPoint = sorted[(i + 1) % sorted.length];
    const next = i + 1 < sorted.length ? nextPoint : { ...sorted[0], minute: sorted[0].minute + DAY };
    const span = next.minute - prev.minute;
    table[m] = span <= 0 ? prev.level : prev.level + ((m - prev.minute) / span) * (next.level - prev.level);
  }
  return table;
}

/** The local minute of the day of every simulated minute (time zones with DST included). */
export function localMinutes(start: Date, minutes: number, timeZone: string): Uint16Array {
  const out = new Uint16Array(minutes);
  for (let m = 0; m < minutes; m++)
    out[m] = localMinuteOfDay(new Date(start.getTime() + m * 60_000), timeZone);
  return out;
}
