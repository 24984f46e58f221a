/** Scales for the SVG charts: linear, "nice" value ticks, time ticks on local boundaries, heat colours. */

export type Scale = (value: number) => number;

/** Maps [d0, d1] onto [r0, r1]; a zero-width domain maps everything to r0. */
export function linearScale([d0, d1]: [number, number], [r0, r1]: [number, number]): Scale {
  const span = d1 - d0;
  return span === 0 ? () => r0 : (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/**
 * Ticks from 0 to a round maximum ≥ `max`: the finest step of 1, 2, 2.5 or 5 × 10^k giving at most
 * `count` + 1 intervals, and no finer than `minStep` (1 for counts of things, which have no halves).
 */
export function niceTicks(max: number, count = 5, minStep = 0): number[] {
  if (!(max > 0)) return [0, Math.max(1, minStep)];
  const magnitude = 10 ** Math.floor(Math.log10(max / (count + 1)));
  const step =
    [1, 2, 2.5, 5, 10, 20]
      .map((m) => m * magnitude)
      .find(
        (s) => s >= minStep && (minStep < 1 || Number.isInteger(s)) && Math.ceil(max / s - 1e-9) <= count + 1,
      ) ?? Math.max(minStep, 20 * magnitude);
  const ticks: number[] = [];
  for (let i = 0; i <= Math.ceil(max / step - 1e-9); i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

const TIME_STEPS_MIN = [5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1440, 2880, 10080];

/**
 * Tick instants (epoch ms) between start and end on round local times (every 3 h from local
 * midnight, …), at most `maxTicks`. `offsetMinutes` is the zone's offset at the start; a DST change
 * inside the span shifts later ticks by the hour it adds or removes, which a chart can live with.
 */
export function timeTicks(startMs: number, endMs: number, offsetMinutes: number, maxTicks = 10): number[] {
  const spanMin = (endMs - startMs) / 60_000;
  const stepMin =
    TIME_STEPS_MIN.find((s) => Math.floor(spanMin / s) + 1 <= maxTicks) ??
    Math.ceil(spanMin / Math.max(1, maxTicks - 1) / 1440) * 1440;
  const step = stepMin * 60_000;
  const offset = offsetMinutes * 60_000;
  const ticks: number[] = [];
  for (let t = Math.ceil((startMs + offset) / step) * step - offset; t <= endMs; t += step) ticks.push(t);
  return ticks;
}

/**
 * Heat colours anchored on the steal threshold, so "orange or worse" always means "above the
 * threshold" whatever the run's maximum: four calm shades below it, five hot ones from it up.
 */
export const HEAT_COLOURS = [
  '#eef2f6',
  '#fdf3c8',
  '#fbe08c',
  '#f7c65a',
  '#f59a3b',
  '#ec6a37',
  '#d63a2f',
  '#a81e2e',
  '#6b0f24',
] as const;

/** Lower bounds of classes 1..8 as multiples of the threshold. */
const HEAT_BOUNDS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

export function heatBounds(threshold: number): number[] {
  const anchor = threshold > 0 ? threshold : 10;
  return HEAT_BOUNDS.map((b) => b * anchor);
}

/** The colour class (0..8) of a steal value. */
export function heatClass(value: number, bounds: readonly number[]): number {
  let c = 0;
  while (c < bounds.length && value >= bounds[c]) c++;
  return c;
}
