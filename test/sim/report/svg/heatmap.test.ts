import { describe, expect, it } from 'vitest';
import { heatmapSvg, MAX_COLUMNS } from '../../../../lib/sim/report/svg/heatmap.js';
import { scenarioClock } from '../../../../lib/sim/report/time.js';
import { makeHeatmap, makeMigration, makeResult, makeScenario } from '../fixtures.js';

const clock = scenarioClock('UTC');
const cells = (svg: string) => svg.match(/<rect [^>]*class="q\d"/g) ?? [];

describe('heatmapSvg', () => {
  it('averages neighbouring buckets when there are more than MAX_COLUMNS', () => {
    const buckets = MAX_COLUMNS * 2 + 10;
    const scenario = makeScenario({ hosts: 2, minutes: buckets * 60 });
    const result = makeResult({ scenario, heatmap: makeHeatmap(2, buckets, scenario.start) });

    const svg = heatmapSvg(result, 'baseline', clock);

    expect(cells(svg).length).toBeLessThanOrEqual(2 * MAX_COLUMNS);
    expect(cells(svg).length).toBeGreaterThan(2 * (MAX_COLUMNS / 2));
  });

  it('groups host rows by zone under a zone label', () => {
    const result = makeResult();

    const svg = heatmapSvg(result, 'baseline', clock);

    expect(svg).toContain('az1 · 2 hosts');
    expect(svg).toContain('az2 · 2 hosts');
    const rows = [...svg.matchAll(/data-host="([^"]+)" data-zone="([^"]+)"/g)].map((m) => m[2]);
    expect(rows).toEqual(['az1', 'az1', 'az2', 'az2']);
  });

  it('marks each migration on its source host in the run with Placid only', () => {
    const migrations = [
      makeMigration({ source_host: 'host-3', status: 'failed' }),
      makeMigration({ source_host: 'host-2', status: 'succeeded' }),
    ];
    const result = makeResult({ migrations });

    const withPlacid = heatmapSvg(result, 'placid', clock);
    const without = heatmapSvg(result, 'baseline', clock);

    expect(withPlacid.match(/class="mk st-[a-z_]+"/g)).toEqual([
      'class="mk st-failed"',
      'class="mk st-succeeded"',
    ]);
    expect(without).not.toContain('class="mk');
  });

  it('keeps the values of each row for the tooltip, one per cell, to one decimal', () => {
    const result = makeResult();

    const svg = heatmapSvg(result, 'placid', clock);

    const first = svg
      .match(/data-v="([^"]+)"/)?.[1]
      .split(',')
      .map(Number);
    const expected = result.heatmap.hosts[0].placid;
    expect(first).toHaveLength(expected.length);
    for (const [i, v] of (first ?? []).entries())
      expect(Math.abs(v - expected[i])).toBeLessThanOrEqual(0.05 + 1e-9);
  });
});
