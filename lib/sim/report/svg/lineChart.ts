/**
 * A small time-series chart: one line per series over the scenario's span, value gridlines, local
 * time ticks, an optional threshold line, and an invisible column per point whose tooltip lists
 * every series' value at that time.
 */
import { escapeHtml } from '../escape.js';
import { linearScale, niceTicks } from '../scale.js';
import type { ZoneClock } from '../time.js';
import { n, text, tip } from './svg.js';
import { timeAxisSvg } from './timeAxis.js';

export interface LineSeries {
  label: string;
  /** CSS class giving the stroke colour (`s-baseline`, `s-placid`). */
  className: string;
  values: readonly number[];
}

export interface LineChart {
  title: string;
  /** Time of each point (ISO-8601), shared by every series. */
  times: readonly string[];
  series: readonly LineSeries[];
  startMs: number;
  endMs: number;
  clock: ZoneClock;
  format: (value: number) => string;
  /** Whole numbers only (VMs, migrations): no 0.5 ticks. */
  integer?: boolean;
  threshold?: { value: number; label: string };
}

const WIDTH = 560;
const HEIGHT = 220;
/** The left margin fits a value label such as `500 Mbit/s`. */
const M = { left: 66, right: 14, top: 12, bottom: 34 };

export function lineChartSvg(chart: LineChart): string {
  const x = linearScale([chart.startMs, chart.endMs], [M.left, WIDTH - M.right]);
  const highest = Math.max(0, chart.threshold?.value ?? 0, ...chart.series.flatMap((s) => [...s.values]));
  const ticks = niceTicks(highest, 4, chart.integer ? 1 : 0);
  const y = linearScale([0, ticks[ticks.length - 1]], [HEIGHT - M.bottom, M.top]);
  const xs = chart.times.map((t) => x(Date.parse(t)));
  const grid = ticks.map(
    (v) =>
      `<line class="grid" x1="${M.left}" x2="${WIDTH - M.right}" y1="${n(y(v))}" y2="${n(y(v))}"/>` +
      text(M.left - 6, y(v) + 3.5, chart.format(v), 'class="tick y"'),
  );
  const threshold = chart.threshold
    ? `<line class="threshold" x1="${M.left}" x2="${WIDTH - M.right}" y1="${n(y(chart.threshold.value))}" y2="${n(y(chart.threshold.value))}"/>` +
      text(
        WIDTH - M.right - 2,
        y(chart.threshold.value) - 4,
        chart.threshold.label,
        'class="threshold-label"',
      )
    : '';
  const lines = chart.series.map((s) => {
    const d = s.values.map((v, i) => `${i === 0 ? 'M' : 'L'}${n(xs[i])} ${n(y(v))}`).join('');
    return `<path class="line ${escapeHtml(s.className)}" d="${d}"/>`;
  });
  return [
    `<svg class="chart line-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(chart.title)}">`,
    grid.join(''),
    timeAxisSvg(
      { startMs: chart.startMs, endMs: chart.endMs, x, clock: chart.clock },
      M.top,
      HEIGHT - M.bottom,
      7,
    ),
    threshold,
    lines.join(''),
    hoverColumns(chart, xs),
    '</svg>',
  ].join('');
}

/** One transparent column per point, reaching halfway to its neighbours. */
function hoverColumns(chart: LineChart, xs: readonly number[]): string {
  const columns = xs.map((cx, i) => {
    const left = i === 0 ? M.left : (xs[i - 1] + cx) / 2;
    const right = i === xs.length - 1 ? WIDTH - M.right : (cx + xs[i + 1]) / 2;
    const lines = [
      chart.clock.dateTime(chart.times[i]),
      ...chart.series.map((s) => `${s.label}: ${chart.format(s.values[i] ?? 0)}`),
    ];
    return `<rect class="hover" x="${n(left)}" y="${M.top}" width="${n(Math.max(0, right - left))}" height="${HEIGHT - M.top - M.bottom}" ${tip(lines)}/>`;
  });
  return `<g class="hover-columns">${columns.join('')}</g>`;
}
