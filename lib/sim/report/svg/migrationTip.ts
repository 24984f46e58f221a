/** The tooltip of one migration, shared by the timeline bars and the heat-map markers. */
import type { MigrationEvent } from '../../result.js';
import { formatBytes, formatMinutes } from '../format.js';
import type { ZoneClock } from '../time.js';
import { tip } from './svg.js';

export const STATUS_LABEL: Record<MigrationEvent['status'], string> = {
  running: 'still running at the end',
  succeeded: 'succeeded',
  failed: 'failed',
  rolled_back: 'rolled back',
};

/** `st-failed`; a status this version does not know gets `st-unknown` rather than data in a class. */
export function statusClass(status: string): string {
  return Object.hasOwn(STATUS_LABEL, status) ? `st-${status}` : 'st-unknown';
}

export function migrationTip(m: MigrationEvent, clock: ZoneClock): string {
  const minutes = m.ended_at ? (Date.parse(m.ended_at) - Date.parse(m.started_at)) / 60_000 : undefined;
  const when = m.ended_at
    ? `${clock.time(m.started_at)} → ${clock.time(m.ended_at)} (${minutes! < 1 ? '<1 min' : formatMinutes(minutes!)})`
    : `${clock.time(m.started_at)} → (running)`;
  return tip([
    `${m.vm_name} (${m.role})`,
    `${m.source_host} → ${m.dest_host} · ${m.zone}`,
    `${when} · ${STATUS_LABEL[m.status] ?? m.status}`,
    `${formatBytes(m.bytes)} · plan ${m.plan_id}, wave ${m.wave}`,
    `Reason: ${m.reason}`,
    m.error ? `Error: ${m.error}` : undefined,
  ]);
}
