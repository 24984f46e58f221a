import { describe, expect, it } from 'vitest';
import { LABEL_WIDTH, RIGHT_PAD, WIDE_WIDTH } from '../../../../lib/sim/report/svg/layout.js';
import { timelineSvg } from '../../../../lib/sim/report/svg/timeline.js';
import { scenarioClock } from '../../../../lib/sim/report/time.js';
import { makeMigration, makeResult } from '../fixtures.js';

const clock = scenarioClock('UTC');
const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar [^"]+" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    width: Number(m[3]),
  }));

describe('timelineSvg', () => {
  it('stacks migrations that overlap on one host in separate sub-rows', () => {
    const migrations = [
      makeMigration({
        migration_id: 'a',
        started_at: '2025-01-06T01:00:00Z',
        ended_at: '2025-01-06T01:30:00Z',
      }),
      makeMigration({
        migration_id: 'b',
        started_at: '2025-01-06T01:10:00Z',
        ended_at: '2025-01-06T01:20:00Z',
      }),
      makeMigration({
        migration_id: 'c',
        started_at: '2025-01-06T02:00:00Z',
        ended_at: '2025-01-06T02:10:00Z',
      }),
    ];

    const [a, b, c] = bars(timelineSvg(makeResult({ migrations }), clock));

    expect(b.y).toBeGreaterThan(a.y);
    expect(c.y).toBe(a.y);
  });

  it('runs a migration still running at the end to the right edge', () => {
    const migrations = [
      makeMigration({ status: 'running', ended_at: undefined, started_at: '2025-01-06T03:00:00Z' }),
    ];

    const [bar] = bars(timelineSvg(makeResult({ migrations }), clock));

    expect(bar.x + bar.width).toBeCloseTo(WIDE_WIDTH - RIGHT_PAD, 1);
  });

  it('places a bar by its start time on the scenario span', () => {
    // The fixture scenario spans 00:00-04:00 UTC; 01:00 is a quarter of the way.
    const [bar] = bars(timelineSvg(makeResult({ migrations: [makeMigration()] }), clock));

    const plot = WIDE_WIDTH - RIGHT_PAD - LABEL_WIDTH;
    expect(bar.x).toBeCloseTo(LABEL_WIDTH + plot / 4, 1);
  });

  it('gives one lane per source host that had a migration', () => {
    const migrations = ['host-1', 'host-3', 'host-1'].map((source_host, i) =>
      makeMigration({ migration_id: `m${i}`, source_host }),
    );

    const svg = timelineSvg(makeResult({ migrations }), clock);

    expect(svg.match(/<rect class="lane"/g)).toHaveLength(2);
    expect(svg).toContain('>host-3</text>');
    expect(svg).not.toContain('>host-2</text>');
  });

  it('puts the migration details in the bar tooltip', () => {
    const migrations = [
      makeMigration({ status: 'rolled_back', error: 'Consul check failed on host-2', bytes: 3 * 2 ** 30 }),
    ];

    const svg = timelineSvg(makeResult({ migrations }), clock);

    const tip = svg.match(/data-tip="([^"]*)"/)?.[1] ?? '';
    for (const part of [
      'web-0001 (web)',
      'host-1 → host-2',
      'rolled back',
      '3.0 GiB',
      'Error: Consul check failed on host-2',
    ])
      expect(tip).toContain(part);
  });
});
