/**
 * The steal heat map of one run: a row per host grouped by zone, a column per time bucket, a cell
 * per host and bucket coloured by mean steal. The run with Placid also marks each migration on its
 * source host at its start. Cells are drawn in bucket units under a scale transform, which keeps
 * each cell to a few bytes.
 */
import type { MigrationEvent, SimulationResult } from '../../result.js';
import { escapeHtml } from '../escape.js';
import { heatBounds, heatClass } from '../scale.js';
import type { ZoneClock } from '../time.js';
import { byZone, LABEL_WIDTH, WIDE_WIDTH, wideTimeAxis, ZONE_HEADER } from './layout.js';
import { migrationTip, statusClass } from './migrationTip.js';
import { n, text } from './svg.js';
import { timeAxisSvg } from './timeAxis.js';

export type Run = 'placid' | 'baseline';

const ROW = 11;
const CELL = 10;
/** Above this many buckets, neighbours are averaged so the file stays small and cells stay visible. */
export const MAX_COLUMNS = 240;

export function heatmapSvg(result: SimulationResult, run: Run, clock: ZoneClock): string {
  const { heatmap } = result;
  const axis = wideTimeAxis(result, clock);
  const factor = Math.max(1, Math.ceil(heatmap.times.length / MAX_COLUMNS));
  const stepMs = heatmap.bucket_minutes * 60_000 * factor;
  const firstMs = heatmap.times.length > 0 ? Date.parse(heatmap.times[0]) : axis.startMs;
  const cellWidth = axis.x(axis.startMs + stepMs) - axis.x(axis.startMs);
  const bounds = heatBounds(result.scenario.steal_threshold_percent);
  const rowY = new Map<string, number>();
  const labels: string[] = [];
  const rows: string[] = [];
  let y = 0;
  for (const [zone, hosts] of byZone(heatmap.hosts, (h) => h.zone)) {
    labels.push(text(0, y + 13, `${zone} · ${hosts.length} hosts`, 'class="zone-label"'));
    y += ZONE_HEADER;
    for (const h of hosts) {
      const values = coarsen(h[run], factor);
      rowY.set(h.host, y);
      labels.push(text(LABEL_WIDTH - 6, y + 8.5, h.host, 'class="host-label"'));
      const cells = values.map(
        (v, i) => `<rect x="${i}" width="1" height="${CELL}" class="q${heatClass(v, bounds)}"/>`,
      );
      const data = `data-host="${escapeHtml(h.host)}" data-zone="${escapeHtml(zone)}" data-v="${values.map((v) => Math.round(v * 10) / 10).join(',')}"`;
      rows.push(`<g class="hm-row" ${data} transform="translate(0 ${y})">${cells.join('')}</g>`);
      y += ROW;
    }
  }
  const markers = run === 'placid' ? migrationMarkers(result.migrations, rowY, axis.x, clock) : '';
  const height = y + 34;
  const attrs = `data-start="${firstMs}" data-step="${stepMs}" data-tz="${escapeHtml(clock.timeZone)}"`;
  return [
    `<svg class="chart heatmap" id="heatmap-${run}" viewBox="0 0 ${WIDE_WIDTH} ${height}" width="${WIDE_WIDTH}" height="${height}" ${attrs} role="img" aria-label="Steal per host over time, ${run === 'placid' ? 'with' : 'without'} Placid">`,
    labels.join(''),
    `<g class="cells" transform="translate(${n(axis.x(firstMs))} 0) scale(${n(cellWidth)} 1)" shape-rendering="crispEdges">${rows.join('')}</g>`,
    markers,
    timeAxisSvg(axis, 0, y + 2, 12),
    '</svg>',
  ].join('');
}

/** Means of `factor` neighbouring buckets. */
function coarsen(values: readonly number[], factor: number): number[] {
  if (factor === 1) return [...values];
  const out: number[] = [];
  for (let i = 0; i < values.length; i += factor) {
    const chunk = values.slice(i, i + factor);
    out.push(chunk.reduce((s, v) => s + v, 0) / chunk.length);
  }
  return out;
}

function migrationMarkers(
  migrations: readonly MigrationEvent[],
  rowY: ReadonlyMap<string, number>,
  x: (ms: number) => number,
  clock: ZoneClock,
): string {
  const marks = migrations.flatMap((m) => {
    const y = rowY.get(m.source_host);
    if (y === undefined) return [];
    const cx = x(Date.parse(m.started_at));
    const shape = `M${n(cx - 3.5)} ${n(y + 1)}h7l-3.5 ${CELL - 2}z`;
    return [`<path class="mk ${statusClass(m.status)}" d="${shape}" ${migrationTip(m, clock)}/>`];
  });
  return `<g class="markers">${marks.join('')}</g>`;
}
