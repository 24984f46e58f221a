/** The top of the report: title and scenario, four headline numbers, and the violations alarm. */
import type { SimulationResult, Violation } from '../../result.js';
import { escapeHtml as e } from '../escape.js';
import { formatCount, formatElapsed, formatMinutes, formatPercent, plural } from '../format.js';
import type { ZoneClock } from '../time.js';

/** How many violations the alarm lists; more than a handful means the run is broken anyway. */
export const VIOLATIONS_SHOWN = 200;

export function headerHtml(result: SimulationResult, clock: ZoneClock): string {
  const s = result.scenario;
  const facts = [
    plural(s.hosts, 'host'),
    plural(s.vms, 'VM'),
    `${plural(s.zones.length, 'zone')} (${s.zones.join(', ')})`,
    `${formatMinutes(s.minutes)}: ${clock.dateTime(s.start)} → ${clock.dateTime(s.end)} ${s.timezone}`,
    `seed ${s.seed}`,
    `mode ${s.mode}`,
    `reports every ${formatMinutes(s.report_interval_minutes)}`,
    `steal threshold ${formatPercent(s.steal_threshold_percent)}`,
    `contention ${s.contention_model}`,
    `simulated in ${formatElapsed(result.elapsed_ms)}`,
  ];
  return `<header><h1>Placid simulation: ${e(s.name)}</h1>
<p class="muted">The same fleet, load and seed, run twice: once left alone, once with Placid moving VMs. All times ${e(s.timezone)}.</p>
<p class="meta">${facts.map((f) => `<span>${e(f)}</span>`).join(' ')}</p></header>`;
}

export function kpisHtml(result: SimulationResult): string {
  const { baseline, placid } = result.runs;
  const steal = relative(baseline.vm_minutes_in_steal, placid.vm_minutes_in_steal);
  const violations = baseline.violations.length + placid.violations.length;
  const m = placid.migrations;
  // Started but neither finished nor failed: still running when the simulated time ran out.
  const running = m.started - m.succeeded - m.failed - m.rolled_back;
  const cards = [
    kpi(
      'VM-minutes in steal',
      steal,
      `${formatCount(baseline.vm_minutes_in_steal)} → ${formatCount(placid.vm_minutes_in_steal)}`,
      placid.vm_minutes_in_steal <= baseline.vm_minutes_in_steal ? 'good' : 'bad',
    ),
    kpi(
      'p95 steal with Placid',
      formatPercent(placid.p95_steal_percent),
      `${formatPercent(baseline.p95_steal_percent)} without Placid`,
      placid.p95_steal_percent <= baseline.p95_steal_percent ? 'good' : 'bad',
    ),
    kpi(
      'Migrations',
      formatCount(m.started),
      `${formatCount(m.succeeded)} succeeded · ${formatCount(m.failed)} failed · ${formatCount(m.rolled_back)} rolled back` +
        (running > 0 ? ` · ${formatCount(running)} still running` : ''),
      '',
    ),
    kpi(
      'Constraint violations',
      formatCount(violations),
      violations === 0 ? 'every hard limit held' : 'hard limits were broken: must be 0',
      violations === 0 ? 'good' : 'bad',
    ),
  ];
  return `<div class="kpis">${cards.join('')}</div>`;
}

function kpi(label: string, value: string, sub: string, tone: string): string {
  return `<div class="kpi"><div class="label">${e(label)}</div><div class="value ${tone}">${e(value)}</div><div class="sub">${e(sub)}</div></div>`;
}

function relative(before: number, after: number): string {
  if (before === 0) return after === 0 ? 'none' : `+${formatCount(after)}`;
  const change = ((after - before) / before) * 100;
  return `${change > 0 ? '+' : change < 0 ? '\u2212' : ''}${formatPercent(Math.abs(change))}`;
}

/** Nothing when both runs kept every constraint; otherwise a red box that lists what broke. */
export function violationsHtml(result: SimulationResult, clock: ZoneClock): string {
  const all: Array<[string, Violation]> = [
    ...result.runs.placid.violations.map((v): [string, Violation] => ['with Placid', v]),
    ...result.runs.baseline.violations.map((v): [string, Violation] => ['without Placid', v]),
  ];
  if (all.length === 0) return '';
  const rows = all
    .slice(0, VIOLATIONS_SHOWN)
    .map(
      ([run, v]) =>
        `<tr><td>${e(run)}</td><td class="num">${e(clock.dateTime(v.at))}</td><td>${e(v.kind)}</td><td>${e(v.detail)}</td></tr>`,
    );
  const more =
    all.length > VIOLATIONS_SHOWN ? `<p>… and ${formatCount(all.length - VIOLATIONS_SHOWN)} more.</p>` : '';
  return `<section class="alarm" id="violations"><h2>${e(plural(all.length, 'constraint violation'))}: this must be 0</h2>
<p>Hard limits were broken during the simulation. Treat the numbers below as unreliable until this is fixed.</p>
<table><thead><tr><th>Run</th><th class="num">Time</th><th>Kind</th><th>Detail</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}</section>`;
}
