/** The time axis shared by the heat map, the timeline and the line charts: local times, dates at midnight. */
import { type Scale, timeTicks } from '../scale.js';
import type { ZoneClock } from '../time.js';
import { n, text } from './svg.js';

export interface TimeAxis {
  startMs: number;
  endMs: number;
  x: Scale;
  clock: ZoneClock;
}

/**
 * Tick marks, labels and optional vertical grid lines from `top` to `bottom`. A label gets the date
 * under it on the first tick and whenever the local day changes.
 */
export function timeAxisSvg(
  axis: TimeAxis,
  top: number,
  bottom: number,
  maxTicks: number,
  grid = false,
): string {
  const ticks = timeTicks(
    axis.startMs,
    axis.endMs,
    axis.clock.offsetMinutes(new Date(axis.startMs)),
    maxTicks,
  );
  let lastDay = '';
  const parts = ticks.map((t) => {
    const x = axis.x(t);
    const day = axis.clock.day(new Date(t));
    const label = [text(x, bottom + 14, axis.clock.time(new Date(t)), 'class="tick"')];
    if (day !== lastDay) label.push(text(x, bottom + 26, day, 'class="tick day"'));
    lastDay = day;
    const line = grid
      ? `<line class="grid" x1="${n(x)}" x2="${n(x)}" y1="${n(top)}" y2="${n(bottom)}"/>`
      : '';
    return `${line}<line class="tick-mark" x1="${n(x)}" x2="${n(x)}" y1="${n(bottom)}" y2="${n(bottom + 4)}"/>${label.join('')}`;
  });
  return `<g class="axis x-axis">${parts.join('')}</g>`;
}
