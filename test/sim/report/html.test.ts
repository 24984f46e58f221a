import { describe, expect, it } from 'vitest';
import { DECISION_ROWS } from '../../../lib/sim/report/html/decisionLog.js';
import { SCRIPT } from '../../../lib/sim/report/html/script.js';
import { renderSimulationHtml } from '../../../lib/sim/report/html.js';
import { makeDecision, makeHeatmap, makeMigration, makeResult, makeRun, makeScenario } from './fixtures.js';
import { realisticResult } from './realisticFixture.js';

const section = (html: string, id: string) => {
  const start = html.indexOf(`id="${id}"`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
};
const rowOf = (html: string, label: string) =>
  html.match(new RegExp(`<tr[^>]*><td>${label}</td>.*?</tr>`))?.[0] ?? '';

describe('renderSimulationHtml', () => {
  it.each([
    [
      'VM-minutes in steal',
      { vm_minutes_in_steal: 98_765 },
      { vm_minutes_in_steal: 4_321 },
      ['98,765', '4,321'],
    ],
    ['p95 steal', { p95_steal_percent: 31.04 }, { p95_steal_percent: 7.96 }, ['31.0%', '8.0%', '−23.1 pp']],
    [
      'Migrations started',
      { migrations: { started: 0, succeeded: 0, failed: 0, rolled_back: 0 } },
      { migrations: { started: 2_345, succeeded: 2_300, failed: 40, rolled_back: 5 } },
      ['0', '2,345', '+2,345'],
    ],
  ])('shows %s for both runs in the comparison table', (label, baseline, placid, expected) => {
    // Prepare
    const result = makeResult({ runs: { baseline: makeRun(baseline), placid: makeRun(placid) } });

    // Act
    const row = rowOf(section(renderSimulationHtml(result), 'comparison'), label);

    // Assess
    for (const part of expected) expect(row).toContain(`>${part}</td>`);
  });

  it('shows an alarm listing each constraint violation when there are any', () => {
    const violations = [
      { at: '2025-01-06T01:00:00Z', kind: 'capacity' as const, detail: 'host-2 over RAM by 4,096 MB' },
    ];
    const result = makeResult({ runs: { baseline: makeRun(), placid: makeRun({ violations }) } });

    const alarm = section(renderSimulationHtml(result), 'violations');

    expect(alarm).toContain('1 constraint violation');
    expect(alarm).toContain('host-2 over RAM by 4,096 MB');
    expect(alarm).toContain('capacity');
  });

  it('shows no alarm when every constraint held', () => {
    expect(renderSimulationHtml(makeResult())).not.toContain('id="violations"');
  });

  it('escapes operator data everywhere it appears', () => {
    // Prepare
    const evil = '<script>alert(1)</script>';
    const result = makeResult({
      scenario: makeScenario({ name: `"><img src=x onerror=alert(2)>` }),
      migrations: [
        makeMigration({ vm_name: evil, reason: '<b>why</b>', error: '<i>oops</i>', status: 'failed' }),
      ],
      decisions: {
        counts: [{ decision: '<u>odd</u>', count: 1 }],
        entries: [makeDecision({ decision: '<u>odd</u>', reason: evil })],
      },
    });

    // Act
    const html = renderSimulationHtml(result);

    // Assess
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script/g)).toHaveLength(1);
    for (const raw of ['<img src=x', '<b>why</b>', '<i>oops</i>', '<u>odd</u>'])
      expect(html).not.toContain(raw);
  });

  it('references no external resource: no URLs, no src, no stylesheet links', () => {
    const html = renderSimulationHtml(realisticResult());

    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/\ssrc=|<link|@import|url\(/);
  });

  it('draws a heat-map cell per host and bucket for each run', () => {
    const scenario = makeScenario({ hosts: 5, minutes: 240 });
    const html = renderSimulationHtml(makeResult({ scenario, heatmap: makeHeatmap(5, 4, scenario.start) }));

    for (const run of ['placid', 'baseline']) {
      const svg = html.match(new RegExp(`<svg[^>]*id="heatmap-${run}".*?</svg>`, 's'))?.[0] ?? '';
      expect(svg.match(/<rect [^>]*class="q\d"/g)).toHaveLength(5 * 4);
    }
  });

  it('draws one timeline bar per migration, classed by status', () => {
    const statuses = ['succeeded', 'failed', 'rolled_back', 'running'] as const;
    const migrations = statuses.map((status, i) =>
      makeMigration({
        migration_id: `m${i}`,
        status,
        ended_at: status === 'running' ? undefined : '2025-01-06T01:05:00Z',
      }),
    );

    const timeline = section(renderSimulationHtml(makeResult({ migrations })), 'timeline');

    const bars = timeline.match(/class="bar st-[a-z_]+"/g) ?? [];
    expect(bars).toEqual(statuses.map((s) => `class="bar st-${s}"`));
  });

  it('says so when no migration started', () => {
    const timeline = section(renderSimulationHtml(makeResult({ migrations: [] })), 'timeline');

    expect(timeline).toContain('No migration started');
    expect(timeline).not.toContain('class="bar');
  });

  it.each([
    ['Asia/Tokyo', '2025-01-06 09:30', '>09:00<'],
    ['America/New_York', '2025-01-05 19:30', '>19:00<'],
    ['UTC', '2025-01-06 00:30', '>00:00<'],
  ])('renders times in the scenario time zone (%s)', (timezone, decisionTime, firstTick) => {
    const scenario = makeScenario({ timezone, start: '2025-01-06T00:00:00Z' });
    const decisions = {
      counts: [{ decision: 'moved', count: 1 }],
      entries: [makeDecision({ at: '2025-01-06T00:30:00Z' })],
    };

    const html = renderSimulationHtml(makeResult({ scenario, decisions }));

    expect(html).toContain(`<td>${decisionTime}</td>`);
    expect(html).toContain(firstTick);
  });

  it('caps the decision log and says how many were left out', () => {
    const entries = Array.from({ length: DECISION_ROWS + 500 }, (_, i) =>
      makeDecision({ instance_uuid: `vm-${i}` }),
    );
    const decisions = { counts: [{ decision: 'moved', count: entries.length }], entries };

    const html = renderSimulationHtml(makeResult({ decisions }));

    const log = html.slice(html.indexOf('<table id="decision-log">'));
    expect(log.match(/<tr data-d=/g)).toHaveLength(DECISION_ROWS);
    expect(html).toContain(
      `Showing the first ${DECISION_ROWS.toLocaleString('en-US')} of ${(DECISION_ROWS + 500).toLocaleString('en-US')} decisions`,
    );
  });

  it('lists every decision, collapsed, when under the cap', () => {
    const html = renderSimulationHtml(makeResult());

    expect(html).toMatch(/<details id="decision-log-details">/);
    expect(html).not.toContain('Showing the first');
    expect(html.match(/<tr data-d=/g)).toHaveLength(1);
  });

  it('embeds a script that parses', () => {
    // Compiles without running: the script needs a browser document.
    expect(() => new Function(SCRIPT)).not.toThrow();
    expect(renderSimulationHtml(makeResult())).toContain(SCRIPT);
  });

  it('keeps a day of a 60-host fleet under 2 MB', () => {
    expect(renderSimulationHtml(realisticResult()).length).toBeLessThan(2_000_000);
  });
});
