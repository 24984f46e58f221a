/**
 * Geometry shared by the heat map and the migration timeline, so their time axes line up one
 * above the other on the page.
 */
import type { SimulationResult } from '../../result.js';
import { linearScale } from '../scale.js';
import type { ZoneClock } from '../time.js';
import type { TimeAxis } from './timeAxis.js';

export const WIDE_WIDTH = 1160;
/** Room for host names left of the plot. */
export const LABEL_WIDTH = 116;
export const RIGHT_PAD = 14;
export const ZONE_HEADER = 18;

/** The scenario's span mapped onto the plot area of a wide chart. */
export function wideTimeAxis(result: SimulationResult, clock: ZoneClock): TimeAxis {
  const startMs = Date.parse(result.scenario.start);
  const endMs = Math.max(Date.parse(result.scenario.end), startMs + 60_000);
  return { startMs, endMs, clock, x: linearScale([startMs, endMs], [LABEL_WIDTH, WIDE_WIDTH - RIGHT_PAD]) };
}

/** Items grouped by zone, zones in order of first appearance (the result lists hosts in zone order). */
export function byZone<T>(items: readonly T[], zoneOf: (item: T) => string): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const zone = zoneOf(item);
    const group = groups.get(zone);
    if (group) group.push(item);
    else groups.set(zone, [item]);
  }
  return [...groups];
}
