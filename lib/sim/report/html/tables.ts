/** The comparison table, the decision counts and the hottest hosts, as HTML. */
import type { SimulationResult } from '../../result.js';
import { comparisonRows } from '../compare.js';
import { escapeHtml as e } from '../escape.js';
import { formatCount, formatPercent } from '../format.js';
import { decisionCounts, hottestHosts } from '../summaries.js';

export const HOTTEST_HOSTS = 10;

export function comparisonHtml(result: SimulationResult): string {
  const rows = comparisonRows(result).map((r) => {
    const classes = [r.level === 1 ? 'sub' : '', r.trend === 'alarm' ? 'alarm-row' : '']
      .filter(Boolean)
      .join(' ');
    return `<tr${classes ? ` class="${classes}"` : ''}><td>${e(r.label)}</td><td class="num">${e(r.baseline)}</td><td class="num">${e(r.placid)}</td><td class="num trend-${r.trend}">${e(r.change)}</td></tr>`;
  });
  return `<section id="comparison"><div class="section-head"><h2>Without and with Placid</h2>
<span class="muted small">same fleet, load and seed</span></div>
<table class="comparison"><thead><tr><th></th><th class="num">Without Placid</th><th class="num">With Placid</th><th class="num">Change</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></section>`;
}

export function decisionCountsHtml(result: SimulationResult): string {
  const counts = decisionCounts(result);
  const total = counts.reduce((s, c) => s + c.count, 0);
  const widest = Math.max(1, ...counts.map((c) => c.count));
  const rows = counts.map(
    (c) =>
      `<div class="row${c.decision === 'moved' ? ' moved' : ''}"><span>${e(c.title)}</span>` +
      `<div class="track"><div class="fill" style="width:${((c.count / widest) * 100).toFixed(1)}%"></div></div>` +
      `<span class="num">${formatCount(c.count)}</span><span class="muted small">${formatPercent((c.count / total) * 100)}</span></div>`,
  );
  const body =
    rows.length > 0
      ? `<div class="bars">${rows.join('')}</div>`
      : '<p class="muted">No VM was considered: the detector found none suffering.</p>';
  return `<section id="decisions"><h2>Decisions</h2><p class="muted small">Every VM the detector considered, by what Placid did (${formatCount(total)} in all).</p>${body}</section>`;
}

export function hottestHostsHtml(result: SimulationResult): string {
  const hosts = hottestHosts(result.heatmap, HOTTEST_HOSTS);
  const cell = (mean: number, peak: number) =>
    `<td class="num">${formatPercent(mean)}</td><td class="num muted">${formatPercent(peak)}</td>`;
  const rows = hosts.map(
    (h) =>
      `<tr><td>${e(h.host)}</td><td>${e(h.zone)}</td>${cell(h.baseline.mean, h.baseline.peak)}${cell(h.placid.mean, h.placid.peak)}</tr>`,
  );
  return `<section id="hosts"><h2>Hottest hosts</h2><p class="muted small">Mean and peak steal over the run, worst without Placid first.</p>
<table><thead><tr><th></th><th></th><th class="group" colspan="2">Without Placid</th><th class="group" colspan="2">With Placid</th></tr>
<tr><th>Host</th><th>Zone</th><th class="num">mean</th><th class="num">peak</th><th class="num">mean</th><th class="num">peak</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></section>`;
}
