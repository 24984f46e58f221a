import { describe, expect, it } from 'vitest';
import { comparisonRows } from '../../../lib/sim/report/compare.js';
import { makeResult, makeRun } from './fixtures.js';

const row = (label: string, baseline: object, placid: object) =>
  comparisonRows(makeResult({ runs: { baseline: makeRun(baseline), placid: makeRun(placid) } })).find(
    (r) => r.label === label,
  );

describe('comparisonRows', () => {
  it.each([
    ['less steal is better', { vm_minutes_in_steal: 100 }, { vm_minutes_in_steal: 40 }, 'better', '−60.0%'],
    ['more steal is worse', { vm_minutes_in_steal: 100 }, { vm_minutes_in_steal: 150 }, 'worse', '+50.0%'],
    ['equal is the same', { vm_minutes_in_steal: 100 }, { vm_minutes_in_steal: 100 }, 'same', 'same'],
    [
      'from zero is an absolute change',
      { vm_minutes_in_steal: 0 },
      { vm_minutes_in_steal: 1_500 },
      'worse',
      '+1,500',
    ],
  ])('VM-minutes in steal: %s', (_name, baseline, placid, trend, change) => {
    expect(row('VM-minutes in steal', baseline, placid)).toMatchObject({ trend, change });
  });

  it('treats migration counts as neutral: moving VMs is the cost, not the result', () => {
    const migrations = { started: 9, succeeded: 9, failed: 0, rolled_back: 0 };

    expect(row('Migrations started', {}, { migrations })?.trend).toBe('neutral');
  });

  it('raises the alarm when either run broke a constraint', () => {
    const violations = [{ at: '2025-01-06T00:00:00Z', kind: 'bandwidth' as const, detail: 'over 10 Gbit/s' }];

    expect(row('Constraint violations', { violations }, {})).toMatchObject({
      trend: 'alarm',
      baseline: '1',
      placid: '0',
    });
    expect(row('Constraint violations', {}, {})).toMatchObject({ trend: 'same', change: 'none' });
  });
});
