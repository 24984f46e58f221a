/** `placid fleet` as text: one aligned table per availability zone. */
import type { Capacity, FleetView, HostView } from '../fleet/fleetView.js';
import { columns, formatNumber, indent, plural } from './format.js';

const HEADER = ['HOST', 'STATUS', 'VCPUS', 'RAM GiB', 'DISK GB', 'VMS', 'STEAL NOW', 'STEAL', 'REPORTED'];
const RIGHT = [2, 3, 4, 5, 6, 7, 8];

export function formatFleet(view: FleetView, where: string): string {
  if (view.totals.hosts === 0) {
    return `The fleet store at ${where} holds no hosts yet: ingest reports with \`placid ingest FILE\`.\n`;
  }
  const header = [...HEADER];
  header[7] = `STEAL ${view.window_minutes}M`;
  const lines = [
    `Fleet at ${view.at.replace('.000Z', 'Z')} (${where}): ${plural(view.totals.hosts, 'host')} in ${plural(view.zones.length, 'zone')}, ${plural(view.totals.vms, 'VM')}`,
    `Capacity is used/limit, limit = total × allocation ratio. Steal: latest sample, and the mean over the last ${view.window_minutes} min.`,
  ];
  // One layout for every zone, so the tables line up down the page.
  const [head, ...rows] = columns([header, ...view.zones.flatMap((z) => z.hosts.map(row))], RIGHT);
  let next = 0;
  for (const zone of view.zones) {
    const vms = zone.hosts.reduce((n, h) => n + h.vms, 0);
    const zoneRows = rows.slice(next, next + zone.hosts.length);
    next += zone.hosts.length;
    lines.push(
      '',
      `${zone.availability_zone ?? '(no availability zone)'}: ${plural(zone.hosts.length, 'host')}, ${plural(vms, 'VM')}`,
      ...indent([head, ...zoneRows], '  '),
    );
  }
  if (view.zones.some((z) => z.hosts.some((h) => h.steal.source === 'vms'))) {
    lines.push('', "* from the host's VMs: the host sends no samples of its own");
  }
  return `${lines.join('\n')}\n`;
}

function row(h: HostView): string[] {
  const name = h.nodename === h.host ? h.host : `${h.host} (${h.nodename})`;
  const mark = h.steal.source === 'vms' ? '*' : ' ';
  return [
    name,
    h.status,
    capacity(h.vcpus, (n) => formatNumber(n)),
    capacity(h.ram_mb, (n) => (n / 1024).toFixed(1)),
    capacity(h.disk_gb, (n) => String(Math.round(n))),
    String(h.vms),
    `${percent(h.steal.now)}${h.steal.now === null ? ' ' : mark}`,
    `${percent(h.steal.window_mean)}${h.steal.window_mean === null ? ' ' : mark}`,
    `${age(h.report_age_seconds)} ago`,
  ];
}

/** `used/limit  pct%`, with `(total×ratio)` when the ratio overcommits or undercommits. */
function capacity(c: Capacity, unit: (n: number) => string): string {
  const ratio = c.ratio === 1 ? '' : ` (${unit(c.total)}×${formatNumber(c.ratio)})`;
  const pct = c.limit > 0 ? `${Math.round((100 * c.used) / c.limit)}%` : '-';
  return `${unit(c.used)}/${unit(c.limit)}${ratio} ${pct.padStart(4)}`;
}

function percent(p: number | null): string {
  return p === null ? '-' : `${p.toFixed(1)}%`;
}

/** 45s, 12m, 3h, 2d: the largest unit that fits. */
export function age(seconds: number): string {
  if (seconds < 90) return `${seconds}s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)}m`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
