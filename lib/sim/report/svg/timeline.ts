/**
 * The migration timeline: a lane per source host (grouped by zone), a bar per migration from its
 * start to its end, coloured by status. Migrations that overlap on one host stack in sub-rows.
 * A migration still running at the end runs to the right edge.
 */
import type { MigrationEvent, SimulationResult } from '../../result.js';
import type { ZoneClock } from '../time.js';
import { byZone, LABEL_WIDTH, WIDE_WIDTH, wideTimeAxis, ZONE_HEADER } from './layout.js';
import { migrationTip, statusClass } from './migrationTip.js';
import { n, text } from './svg.js';
import { timeAxisSvg } from './timeAxis.js';

const BAR = 8;
const SUB_ROW = 10;
const LANE_PAD = 3;
/** Bars are at least this wide, so a one-minute migration on a day-long axis can still be pointed at. */
const MIN_BAR = 3;

interface Placed {
  migration: MigrationEvent;
  x0: number;
  x1: number;
  row: number;
}

export function timelineSvg(result: SimulationResult, clock: ZoneClock): string {
  const axis = wideTimeAxis(result, clock);
  const zoneOfHost = new Map(result.heatmap.hosts.map((h) => [h.host, h.zone]));
  const hostOrder = new Map(result.heatmap.hosts.map((h, i) => [h.host, i]));
  const lanes = byZone(
    laneHosts(result.migrations, hostOrder),
    (host) => zoneOfHost.get(host) ?? zoneOf(result, host),
  );
  const parts: string[] = [];
  let y = 0;
  for (const [zone, hosts] of lanes) {
    parts.push(text(0, y + 13, `${zone} · ${hosts.length} source hosts`, 'class="zone-label"'));
    y += ZONE_HEADER;
    for (const host of hosts) {
      const placed = pack(
        result.migrations.filter((m) => m.source_host === host),
        (m) => axis.x(Date.parse(m.started_at)),
        (m) => (m.ended_at ? axis.x(Date.parse(m.ended_at)) : axis.x(axis.endMs)),
      );
      const rows = Math.max(1, ...placed.map((p) => p.row + 1));
      const height = rows * SUB_ROW + LANE_PAD;
      parts.push(
        `<rect class="lane" x="${LABEL_WIDTH}" y="${n(y)}" width="${n(axis.x(axis.endMs) - LABEL_WIDTH)}" height="${height}"/>`,
      );
      parts.push(text(LABEL_WIDTH - 6, y + height / 2 + 3.5, host, 'class="host-label"'));
      for (const p of placed) {
        const by = y + LANE_PAD / 2 + p.row * SUB_ROW + (SUB_ROW - BAR) / 2;
        parts.push(
          `<rect class="bar ${statusClass(p.migration.status)}" x="${n(p.x0)}" y="${n(by)}" width="${n(p.x1 - p.x0)}" height="${BAR}" rx="1.5" ${migrationTip(p.migration, clock)}/>`,
        );
      }
      y += height + 1;
    }
  }
  const height = y + 34;
  return [
    `<svg class="chart timeline" viewBox="0 0 ${WIDE_WIDTH} ${height}" width="${WIDE_WIDTH}" height="${height}" role="img" aria-label="Migration timeline">`,
    timeAxisSvg(axis, 0, y + 2, 12, true),
    parts.join(''),
    '</svg>',
  ].join('');
}

/** Source hosts with at least one migration, in heat-map order (unknown hosts last, by name). */
function laneHosts(migrations: readonly MigrationEvent[], order: ReadonlyMap<string, number>): string[] {
  const hosts = [...new Set(migrations.map((m) => m.source_host))];
  const rank = (h: string) => order.get(h) ?? Number.MAX_SAFE_INTEGER;
  return hosts.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function zoneOf(result: SimulationResult, host: string): string {
  return result.migrations.find((m) => m.source_host === host)?.zone ?? '?';
}

/** Greedy interval packing: each bar goes into the first sub-row whose last bar ended before it starts. */
function pack(
  migrations: readonly MigrationEvent[],
  start: (m: MigrationEvent) => number,
  end: (m: MigrationEvent) => number,
): Placed[] {
  const rowEnds: number[] = [];
  return [...migrations]
    .sort((a, b) => a.started_at.localeCompare(b.started_at))
    .map((migration) => {
      const x0 = start(migration);
      const x1 = Math.max(end(migration), x0 + MIN_BAR);
      let row = rowEnds.findIndex((e) => e + 1 <= x0);
      if (row === -1) row = rowEnds.push(x1) - 1;
      else rowEnds[row] = x1;
      return { migration, x0, x1, row };
    });
}
