import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lib/model/errors.js';
import { renderSimulationText, TOP_HOSTS } from '../../../lib/sim/report/text.js';
import { makeHeatmap, makeResult, makeRun, makeScenario } from './fixtures.js';

const lineOf = (text: string, label: string) =>
  text.split('\n').find((l) => l.trimStart().startsWith(label)) ?? '';
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI sequences
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('renderSimulationText', () => {
  it.each([
    [
      'VM-minutes in steal',
      { vm_minutes_in_steal: 12_345 },
      { vm_minutes_in_steal: 2_345 },
      ['12,345', '2,345', '−81.0%'],
    ],
    [
      'Suffering VM-minutes',
      { suffering_vm_minutes: 4_000 },
      { suffering_vm_minutes: 5_000 },
      ['4,000', '5,000', '+25.0%'],
    ],
    ['p95 steal', { p95_steal_percent: 22.5 }, { p95_steal_percent: 6 }, ['22.5%', '6.0%', '−16.5 pp']],
    ['Max steal', { max_steal_percent: 48.25 }, { max_steal_percent: 30 }, ['48.3%', '30.0%', '−18.3 pp']],
    ['Plans', { plans: 0 }, { plans: 1_234 }, ['0', '1,234', '+1,234']],
    ['GB moved', { gb_moved: 0 }, { gb_moved: 1_536.44 }, ['0.0 GB', '1,536.4 GB']],
    [
      'Peak migration bandwidth',
      { peak_bandwidth_mbps: 0 },
      { peak_bandwidth_mbps: 2_400 },
      ['0 Mbit/s', '2.4 Gbit/s'],
    ],
  ])('shows %s for both runs and the change', (label, baseline, placid, expected) => {
    // Prepare
    const result = makeResult({ runs: { baseline: makeRun(baseline), placid: makeRun(placid) } });

    // Act
    const line = lineOf(renderSimulationText(result), label);

    // Assess
    for (const part of expected) expect(line).toContain(part);
    expect(line.indexOf(expected[0])).toBeLessThan(line.lastIndexOf(expected[1]));
  });

  it('breaks migrations down into succeeded, failed and rolled back', () => {
    const placid = makeRun({ migrations: { started: 1_010, succeeded: 1_000, failed: 7, rolled_back: 3 } });
    const text = renderSimulationText(makeResult({ runs: { baseline: makeRun(), placid } }));

    expect(lineOf(text, 'Migrations started')).toContain('1,010');
    expect(lineOf(text, 'succeeded')).toContain('1,000');
    expect(lineOf(text, 'failed')).toMatch(/\b7\b/);
    expect(lineOf(text, 'rolled back')).toMatch(/\b3\b/);
  });

  it('prints constraint violations loudly, with their kind and detail', () => {
    const violations = [
      {
        at: '2025-01-06T01:00:00Z',
        kind: 'host_concurrency' as const,
        detail: 'host-1 ran 3 migrations (limit 2)',
      },
      {
        at: '2025-01-06T02:00:00Z',
        kind: 'blackout' as const,
        detail: 'mig-9 started in the lunch blackout',
      },
    ];
    const result = makeResult({ runs: { baseline: makeRun(), placid: makeRun({ violations }) } });

    const text = renderSimulationText(result);

    expect(text).toContain('!!! 2 CONSTRAINT VIOLATIONS');
    expect(text).toContain('host-1 ran 3 migrations (limit 2)');
    expect(text).toContain('blackout');
    expect(lineOf(text, 'Constraint violations')).toContain('MUST BE 0');
  });

  it('says none when no constraint was broken', () => {
    const text = renderSimulationText(makeResult());

    expect(text).not.toContain('CONSTRAINT VIOLATION');
    expect(lineOf(text, 'Constraint violations')).toMatch(/0\s+0\s+none$/);
  });

  it('describes the scenario with local times in its time zone', () => {
    const scenario = makeScenario({
      name: 'tokyo-day',
      hosts: 1_200,
      vms: 24_000,
      zones: ['az1', 'az2', 'az3'],
      start: '2025-01-05T15:00:00Z',
      end: '2025-01-06T15:00:00Z',
      minutes: 1440,
      timezone: 'Asia/Tokyo',
      seed: 99,
      mode: 'approve',
      report_interval_minutes: 5,
    });

    const text = renderSimulationText(makeResult({ scenario, heatmap: makeHeatmap(4, 24, scenario.start) }));

    expect(text).toContain('1,200 hosts, 24,000 VMs in 3 zones: az1, az2, az3');
    expect(text).toContain('24 h simulated: 2025-01-06 00:00 → 2025-01-07 00:00 (Asia/Tokyo)');
    expect(text).toContain('seed 99 · mode approve · reports every 5 min');
  });

  it('lists the decisions with moved first, then the skip reasons by count', () => {
    const counts = [
      { decision: 'cooldown', count: 5 },
      { decision: 'no_destination', count: 1_500 },
      { decision: 'moved', count: 40 },
    ];
    const text = renderSimulationText(makeResult({ decisions: { counts, entries: [] } }));

    const order = ['Moved', 'No destination', 'Cooling down'].map((t) => text.indexOf(`  ${t}`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lineOf(text, 'No destination')).toContain('1,500');
  });

  it('lists the hottest hosts without Placid first, at most TOP_HOSTS of them', () => {
    const heatmap = makeHeatmap(8, 4, makeScenario().start);
    heatmap.hosts[6].baseline = [90, 90, 90, 90];
    const text = renderSimulationText(makeResult({ heatmap }));

    const section = text.slice(text.indexOf('Hottest hosts'));
    const hostLines = section.split('\n').filter((l) => /^\s+host-\d/.test(l));
    expect(hostLines).toHaveLength(TOP_HOSTS);
    expect(hostLines[0]).toContain('host-7');
    expect(hostLines[0]).toContain('90.0%');
  });

  it('adds colour only as ANSI sequences: without them the text is the plain output', () => {
    const result = makeResult();

    const coloured = renderSimulationText(result, { color: true });

    expect(coloured).toContain('\u001b[');
    expect(renderSimulationText(result)).not.toContain('\u001b');
    expect(stripAnsi(coloured)).toBe(renderSimulationText(result));
  });

  it('drops control characters from operator data', () => {
    const result = makeResult({ scenario: makeScenario({ name: 'evil\u001b[2Jname' }) });

    const text = renderSimulationText(result);

    expect(text).not.toContain('\u001b');
    expect(text).toContain('evil [2Jname');
  });

  it('rejects an unknown time zone, naming the field', () => {
    const result = makeResult({ scenario: makeScenario({ timezone: 'Mars/Olympus' }) });

    expect(() => renderSimulationText(result)).toThrow(ValidationError);
    expect(() => renderSimulationText(result)).toThrow(/scenario\.timezone/);
  });
});
