/**
 * The decision log: every decision in time order, collapsed by default and capped so a long run
 * does not make a huge file; the note says how many were left out and where to find them.
 */
import type { SimulationResult } from '../../result.js';
import { escapeHtml as e } from '../escape.js';
import { formatCount } from '../format.js';
import { decisionCounts, decisionTitle } from '../summaries.js';
import type { ZoneClock } from '../time.js';

export const DECISION_ROWS = 2000;

export function decisionLogHtml(result: SimulationResult, clock: ZoneClock): string {
  const { entries } = result.decisions;
  const shown = entries.slice(0, DECISION_ROWS);
  const names = new Map(result.migrations.map((m) => [m.instance_uuid, m.vm_name]));
  const rows = shown.map((d) => {
    const name = names.get(d.instance_uuid);
    const vm = name
      ? `<td class="vm" title="${e(d.instance_uuid)}">${e(name)}</td>`
      : `<td class="vm">${e(d.instance_uuid)}</td>`;
    const badge = `<span class="badge${d.decision === 'moved' ? ' moved' : ''}">${e(decisionTitle(d.decision))}</span>`;
    return `<tr data-d="${e(d.decision)}"><td>${e(clock.dateTime(d.at))}</td><td>${e(d.plan_id)}</td>${vm}<td>${badge}</td><td>${e(d.reason)}</td></tr>`;
  });
  const note =
    entries.length > shown.length
      ? `<p class="note muted small">Showing the first ${formatCount(shown.length)} of ${formatCount(entries.length)} decisions; <code>placid simulate --json</code> lists them all.</p>`
      : '';
  const options = decisionCounts(result).map(
    (c) => `<option value="${e(c.decision)}">${e(c.title)} (${formatCount(c.count)})</option>`,
  );
  return `<section><details id="decision-log-details"><summary>Decision log: ${formatCount(entries.length)} decisions</summary>
<div class="log-tools"><label class="small muted">Show <select id="decision-filter"><option value="">every decision</option>${options.join('')}</select></label></div>${note}
<table id="decision-log"><thead><tr><th>Time</th><th>Plan</th><th>VM</th><th>Decision</th><th>Reason</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></details></section>`;
}
