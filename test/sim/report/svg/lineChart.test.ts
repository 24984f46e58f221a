import { describe, expect, it } from 'vitest';
import { lineChartSvg } from '../../../../lib/sim/report/svg/lineChart.js';
import { scenarioClock } from '../../../../lib/sim/report/time.js';

const times = ['2025-01-06T00:00:00Z', '2025-01-06T01:00:00Z', '2025-01-06T02:00:00Z'];
const chart = {
  title: 'p95 steal',
  times,
  series: [
    { label: 'without Placid', className: 's-baseline', values: [12, 30, 18] },
    { label: 'with Placid', className: 's-placid', values: [4, 9, 5] },
  ],
  startMs: Date.parse(times[0]),
  endMs: Date.parse(times[2]),
  clock: scenarioClock('Asia/Tokyo'),
  format: (v: number) => `${v}%`,
};

describe('lineChartSvg', () => {
  it('draws one line per series', () => {
    const svg = lineChartSvg(chart);

    expect(svg.match(/<path class="line s-baseline"/g)).toHaveLength(1);
    expect(svg.match(/<path class="line s-placid"/g)).toHaveLength(1);
  });

  it('has a hover column per point listing every series at that local time', () => {
    const svg = lineChartSvg(chart);

    const tips = [...svg.matchAll(/class="hover"[^>]*data-tip="([^"]*)"/g)].map((m) => m[1]);
    expect(tips).toHaveLength(3);
    expect(tips[1]).toBe('2025-01-06 10:00\nwithout Placid: 30%\nwith Placid: 9%');
  });

  it('extends the value axis over the highest value', () => {
    const svg = lineChartSvg(chart);

    const labels = [...svg.matchAll(/class="tick y">([^<]+)</g)].map((m) => Number.parseFloat(m[1]));
    expect(Math.max(...labels)).toBeGreaterThanOrEqual(30);
  });

  it('labels a chart of whole things with whole numbers only', () => {
    const running = {
      ...chart,
      series: [{ label: 'with Placid', className: 's-placid', values: [0, 1, 0] }],
    };

    const svg = lineChartSvg({ ...running, integer: true });

    const labels = [...svg.matchAll(/class="tick y">([^<]+)</g)].map((m) => m[1]);
    expect(labels).toEqual(['0%', '1%']);
  });

  it('draws the threshold line only when asked', () => {
    expect(lineChartSvg(chart)).not.toContain('class="threshold"');
    expect(lineChartSvg({ ...chart, threshold: { value: 10, label: 'threshold 10%' } })).toContain(
      'threshold 10%',
    );
  });
});
