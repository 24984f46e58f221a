/**
 * The terminal summary printed after a simulation: the scenario, both runs side by side, the
 * decisions and the hottest hosts. Reads the same with and without colour.
 */
import type { SimulationResult, Violation } from '../result.js';
import { type Paint, painter, type Style } from './ansi.js';
import { type ComparisonRow, comparisonRows, type Trend } from './compare.js';
import { plainText } from './escape.js';
import { formatCount, formatElapsed, formatMinutes, formatPercent, plural } from './format.js';
import { decisionCounts, hottestHosts } from './summaries.js';
import { type Cell, layoutRows } from './textTable.js';
import { scenarioClock, type ZoneClock } from './time.js';

/** How many hosts and violations the summary lists; the HTML report and --json have the rest. */
export const TOP_HOSTS = 5;
export const VIOLATIONS_LISTED = 20;

const TREND_STYLE: Record<Trend, Style | undefined> = {
  better: 'green',
  worse: 'red',
  same: 'dim',
  neutral: undefined,
  alarm: 'alarm',
};

/** @example process.stdout.write(renderSimulationText(result, { color: process.stdout.isTTY })) */
export function renderSimulationText(result: SimulationResult, options: { color?: boolean } = {}): string {
  const paint = painter(options.color ?? false);
  const clock = scenarioClock(result.scenario.timezone);
  const sections = [
    scenarioLines(result, clock, paint),
    comparisonTable(comparisonRows(result), paint),
    violationLines(result, clock, paint),
    decisionLines(result, paint),
    hostLines(result, paint),
  ];
  return `${sections
    .filter((s) => s.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n')}\n`;
}

/** The simulated world's contention model, as the report names it. */
const CONTENTION_TEXT: Record<string, string> = {
  proportional: "proportional share (every VM on a host loses the same share: the planner's own model)",
  unequal: 'unequal share (small VMs lose more; not the model the planner predicts with)',
};

function scenarioLines(result: SimulationResult, clock: ZoneClock, paint: Paint): string[] {
  const s = result.scenario;
  return [
    paint('bold', `Placid simulation: ${plainText(s.name)}`),
    `  ${plural(s.hosts, 'host')}, ${plural(s.vms, 'VM')} in ${plural(s.zones.length, 'zone')}: ${plainText(s.zones.join(', '))}`,
    `  ${formatMinutes(s.minutes)} simulated: ${clock.dateTime(s.start)} → ${clock.dateTime(s.end)} (${plainText(s.timezone)})`,
    `  seed ${s.seed} · mode ${plainText(s.mode)} · reports every ${formatMinutes(s.report_interval_minutes)}` +
      ` · steal threshold ${formatPercent(s.steal_threshold_percent)} · ran in ${formatElapsed(result.elapsed_ms)}`,
    `  contention: ${CONTENTION_TEXT[s.contention_model] ?? plainText(s.contention_model)}`,
  ];
}

function comparisonTable(rows: ComparisonRow[], paint: Paint): string[] {
  const head: Cell[] = ['', 'without Placid', 'with Placid', 'change'].map((text) => ({
    text,
    style: 'bold',
  }));
  const body = rows.map((r): Cell[] => {
    const style = TREND_STYLE[r.trend];
    const alarm = r.trend === 'alarm';
    return [
      { text: `${'  '.repeat(r.level)}${r.label}`, style: alarm ? 'alarm' : undefined },
      { text: r.baseline, style: alarm && r.baseline !== '0' ? 'alarm' : undefined },
      { text: r.placid, style: alarm && r.placid !== '0' ? 'alarm' : undefined },
      { text: r.change, style },
    ];
  });
  return layoutRows([head, ...body], paint, [1, 2, 3]);
}

function violationLines(result: SimulationResult, clock: ZoneClock, paint: Paint): string[] {
  const all: Array<[string, Violation]> = [
    ...result.runs.placid.violations.map((v): [string, Violation] => ['with Placid', v]),
    ...result.runs.baseline.violations.map((v): [string, Violation] => ['without Placid', v]),
  ];
  if (all.length === 0) return [];
  const banner = `!!! ${plural(all.length, 'CONSTRAINT VIOLATION', 'CONSTRAINT VIOLATIONS')} — hard limits were broken; this must be 0 !!!`;
  const rows = all
    .slice(0, VIOLATIONS_LISTED)
    .map(([run, v]): Cell[] => [
      { text: run },
      { text: clock.dateTime(v.at) },
      { text: v.kind, style: 'red' },
      { text: plainText(v.detail) },
    ]);
  const more = all.length - VIOLATIONS_LISTED;
  return [
    paint('alarm', banner),
    ...layoutRows(rows, paint).map((line) => `  ${line}`),
    ...(more > 0 ? [`  … and ${formatCount(more)} more (see the HTML report or --json)`] : []),
  ];
}

function decisionLines(result: SimulationResult, paint: Paint): string[] {
  const counts = decisionCounts(result);
  if (counts.length === 0) return [paint('bold', 'Decisions: none (the detector found no suffering VM)')];
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const rows = counts.map((c): Cell[] => [
    { text: plainText(c.title), style: c.decision === 'moved' ? 'green' : undefined },
    { text: formatCount(c.count) },
    { text: formatPercent((c.count / total) * 100), style: 'dim' },
  ]);
  return [
    paint('bold', `Decisions (${formatCount(total)}):`),
    ...layoutRows(rows, paint, [1, 2]).map((l) => `  ${l}`),
  ];
}

function hostLines(result: SimulationResult, paint: Paint): string[] {
  const hosts = hottestHosts(result.heatmap, TOP_HOSTS);
  if (hosts.length === 0) return [];
  const head: Cell[] = ['host', 'zone', 'without Placid', 'with Placid'].map((text) => ({
    text,
    style: 'dim',
  }));
  const rows = hosts.map((h): Cell[] => [
    { text: plainText(h.host) },
    { text: plainText(h.zone) },
    { text: `${formatPercent(h.baseline.mean)} (peak ${formatPercent(h.baseline.peak)})` },
    {
      text: `${formatPercent(h.placid.mean)} (peak ${formatPercent(h.placid.peak)})`,
      style: h.placid.mean < h.baseline.mean ? 'green' : h.placid.mean > h.baseline.mean ? 'red' : undefined,
    },
  ]);
  return [
    paint('bold', `Hottest hosts (mean steal over the run):`),
    ...layoutRows([head, ...rows], paint, [2, 3]).map((l) => `  ${l}`),
  ];
}
