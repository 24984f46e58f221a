/**
 * What one collection run did, for the operator (text) and for scripts or logs (JSON): what was
 * reported, what could not be mapped or measured, and whether the run was complete.
 */
import type { MappingStats } from './metricTable.js';
import type { GapReason } from './samples.js';

export interface RunSummary {
  started_at: string;
  window: { start: string; end: string; step_seconds: number };
  hosts: number;
  vms: number;
  samples: { hosts: number; vms: number };
  /** Entities with at least one gap, by the gap's reason. */
  gaps: Record<GapReason, number>;
  vms_without_series: string[];
  hosts_without_series: string[];
  mapping: MappingStats;
  /** Servers that are not on a compute node (shelved, building, errored) or on one Nova did not list. */
  skipped_servers: { without_host: number; on_unknown_node: number };
  usage_sources: Record<string, number>;
  messages: { built: number; sent: number; rejected: { message: number; reason: string }[] };
  /** Expected limits (a source turned off, no Placement): do not make a run incomplete. */
  notes: string[];
  /** What made the run incomplete: failed queries, partial answers, refused messages. */
  problems: string[];
  /** Nothing could be sent (the inventory failed). */
  failed: boolean;
  complete: boolean;
}

const SHOWN = 10;

export function formatSummary(s: RunSummary): string {
  const status = s.failed ? 'FAILED' : s.complete ? 'complete' : 'INCOMPLETE';
  const lines = [
    `collect ${s.window.start} .. ${s.window.end} (step ${s.window.step_seconds}s): ${status}`,
    `  hosts     ${s.hosts} (${s.samples.hosts} samples)`,
    `  vms       ${s.vms} (${s.samples.vms} samples)`,
    `  messages  ${s.messages.sent} of ${s.messages.built} sent`,
  ];
  const gapTotal = Object.values(s.gaps).reduce((n, v) => n + v, 0);
  if (gapTotal > 0) {
    const parts = Object.entries(s.gaps)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${n} ${reason.replace('_', ' ')}`);
    lines.push(`  gaps      ${parts.join(', ')} (reports with gaps, by reason)`);
  }
  list(lines, 'VMs with no series', s.vms_without_series);
  list(lines, 'hosts with no series', s.hosts_without_series);
  list(
    lines,
    'series mapped to nothing',
    s.mapping.unmapped.map((u) => `${u.labels} (${u.queries.join(', ')})`),
  );
  list(
    lines,
    'series naming several VMs',
    s.mapping.ambiguous.map((a) => `${a.query}: ${a.value}`),
  );
  list(
    lines,
    'duplicate series (first one used)',
    s.mapping.duplicates.map((d) => `${d.query}: ${d.labels}`),
  );
  if (s.mapping.otherKind > 0) {
    lines.push(
      `  ${s.mapping.otherKind} series belonged to the other kind (host series in VM queries or the reverse)`,
    );
  }
  const skipped = s.skipped_servers;
  if (skipped.without_host + skipped.on_unknown_node > 0) {
    lines.push(
      `  servers not reported: ${skipped.without_host} without a host, ${skipped.on_unknown_node} on a node Nova did not list`,
    );
  }
  list(
    lines,
    'messages refused',
    s.messages.rejected.map((r) => `message ${r.message}: ${r.reason}`),
  );
  list(lines, 'notes', s.notes);
  list(lines, 'problems', s.problems);
  return `${lines.join('\n')}\n`;
}

function list(lines: string[], title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  lines.push(`  ${title}: ${items.length}`);
  for (const item of items.slice(0, SHOWN)) lines.push(`    ${item}`);
  if (items.length > SHOWN) lines.push(`    … and ${items.length - SHOWN} more (--json lists them all)`);
}
