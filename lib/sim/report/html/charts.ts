/** The chart sections: steal heat map (toggle between runs), migration timeline, and the time series. */
import type { MigrationStatus, SimulationResult } from '../../result.js';
import { escapeHtml as e } from '../escape.js';
import { formatCount, formatMbps, formatMinutes } from '../format.js';
import { HEAT_COLOURS, heatBounds } from '../scale.js';
import { heatmapSvg } from '../svg/heatmap.js';
import { type LineSeries, lineChartSvg } from '../svg/lineChart.js';
import { STATUS_LABEL, statusClass } from '../svg/migrationTip.js';
import { timelineSvg } from '../svg/timeline.js';
import type { ZoneClock } from '../time.js';

const STATUSES: MigrationStatus[] = ['succeeded', 'failed', 'rolled_back', 'running'];
const pct = (v: number) => `${Number.isInteger(v) ? v : v.toFixed(1)}%`;

export function heatmapSectionHtml(result: SimulationResult, clock: ZoneClock): string {
  const bounds = heatBounds(result.scenario.steal_threshold_percent);
  const steps = HEAT_COLOURS.map((_, i) => {
    // Each label sits at the left edge of its swatch: the lower bound of that colour.
    const label = i === 0 ? '0%' : i === bounds.length ? `${pct(bounds[i - 1])}+` : pct(bounds[i - 1]);
    const atThreshold = bounds[i - 1] === result.scenario.steal_threshold_percent ? ' at-threshold' : '';
    return `<span class="step${atThreshold}"><span class="sw q${i}"></span>${e(label)}</span>`;
  });
  const markers = STATUSES.map(
    (s) => `<span class="item"><span class="sw ${statusClass(s)}"></span>${e(STATUS_LABEL[s])}</span>`,
  );
  return `<section class="toggle" id="heatmap">
<input type="radio" name="hm-run" id="hm-run-placid" checked><input type="radio" name="hm-run" id="hm-run-baseline">
<div class="section-head"><div><h2>Steal per host over time</h2>
<p class="muted small">Mean VM steal per host per ${e(formatMinutes(result.heatmap.bucket_minutes))}; hosts grouped by zone. Red line in the scale: the ${e(pct(result.scenario.steal_threshold_percent))} steal threshold.</p></div>
<div class="segmented"><label for="hm-run-baseline">Without Placid</label><label for="hm-run-placid">With Placid</label></div></div>
<div class="legend"><span class="scale">${steps.join('')}</span><span class="item">▼ migration started on this host:</span>${markers.join('')}</div>
<div class="hm-view hm-baseline">${heatmapSvg(result, 'baseline', clock)}</div>
<div class="hm-view hm-placid">${heatmapSvg(result, 'placid', clock)}</div></section>`;
}

export function timelineSectionHtml(result: SimulationResult, clock: ZoneClock): string {
  const counts = STATUSES.map((s) => {
    const count = result.migrations.filter((m) => m.status === s).length;
    return `<span class="item"><span class="sw ${statusClass(s)}"></span>${e(STATUS_LABEL[s])} (${formatCount(count)})</span>`;
  });
  const body =
    result.migrations.length > 0
      ? timelineSvg(result, clock)
      : '<p class="muted">No migration started: Placid found nothing worth moving, or every move was skipped (see the decisions).</p>';
  return `<section id="timeline"><h2>Migration timeline</h2>
<p class="muted small">One lane per source host; a bar per migration from start to end. Point at a bar for the VM, the move and the reason.</p>
<div class="legend">${counts.join('')}</div>${body}</section>`;
}

export function seriesSectionHtml(result: SimulationResult, clock: ZoneClock): string {
  const { baseline, placid } = result.series;
  const base = {
    times: placid.map((p) => p.at),
    startMs: Date.parse(result.scenario.start),
    endMs: Date.parse(result.scenario.end),
    clock,
  };
  const both = (pick: (p: (typeof placid)[number]) => number): LineSeries[] => [
    { label: 'without Placid', className: 's-baseline', values: baseline.map(pick) },
    { label: 'with Placid', className: 's-placid', values: placid.map(pick) },
  ];
  // Without Placid nothing migrates; its flat zero line would only hide the axis.
  const placidOnly = (pick: (p: (typeof placid)[number]) => number): LineSeries[] =>
    both(pick).filter((s) => s.className === 's-placid' || s.values.some((v) => v !== 0));
  const charts = [
    {
      title: 'p95 steal',
      note: 'over all VMs',
      series: both((p) => p.p95_steal_percent),
      format: pct,
      threshold: {
        value: result.scenario.steal_threshold_percent,
        label: `threshold ${pct(result.scenario.steal_threshold_percent)}`,
      },
    },
    {
      title: 'Suffering VMs',
      note: 'steal and load both above threshold',
      series: both((p) => p.suffering_vms),
      format: formatCount,
      integer: true,
    },
    {
      title: 'Migrations running',
      note: 'at each point in time',
      series: placidOnly((p) => p.migrations_running),
      format: formatCount,
      integer: true,
    },
    {
      title: 'Migration bandwidth',
      note: 'all migrations in flight',
      series: placidOnly((p) => p.bandwidth_mbps),
      format: formatMbps,
    },
  ];
  const cards = charts.map((c) => {
    const legend = c.series.map(
      (s) =>
        `<span class="item"><span class="sw line ${s.className === 's-placid' ? 'placid' : 'baseline'}"></span>${e(s.label)}</span>`,
    );
    return `<section><h3>${e(c.title)} <span class="muted small">${e(c.note)}</span></h3><div class="legend">${legend.join('')}</div>${lineChartSvg({ ...base, ...c })}</section>`;
  });
  return `<div class="cols" id="series">${cards.join('')}</div>`;
}
