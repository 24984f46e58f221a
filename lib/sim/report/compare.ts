/**
 * The "without Placid | with Placid | change" table, once, for both renderers: labels, formatted
 * values, the change and whether it is an improvement. Migration counts are neutral: moving VMs is
 * the cost Placid pays, not a result in itself.
 */
import type { RunMetrics, SimulationResult } from '../result.js';
import { formatCount, formatGb, formatMbps, formatPercent } from './format.js';

/** `alarm`: a hard constraint was broken; the renderers make it impossible to miss. */
export type Trend = 'better' | 'worse' | 'same' | 'neutral' | 'alarm';

export interface ComparisonRow {
  label: string;
  /** 1 for the breakdown of the row above (succeeded, failed, … under migrations started). */
  level: 0 | 1;
  baseline: string;
  placid: string;
  change: string;
  trend: Trend;
}

const MINUS = '\u2212';

type Metric = {
  label: string;
  level?: 0 | 1;
  value: (run: RunMetrics) => number;
  format: (n: number) => string;
  /** relative: percent of the baseline; points: percentage points; absolute: the difference. */
  change: 'relative' | 'points' | 'absolute';
  lowerIsBetter?: boolean;
};

const METRICS: Metric[] = [
  {
    label: 'VM-minutes in steal',
    value: (r) => r.vm_minutes_in_steal,
    format: formatCount,
    change: 'relative',
    lowerIsBetter: true,
  },
  {
    label: 'Suffering VM-minutes',
    value: (r) => r.suffering_vm_minutes,
    format: formatCount,
    change: 'relative',
    lowerIsBetter: true,
  },
  {
    label: 'p95 steal',
    value: (r) => r.p95_steal_percent,
    format: formatPercent,
    change: 'points',
    lowerIsBetter: true,
  },
  {
    label: 'Max steal',
    value: (r) => r.max_steal_percent,
    format: formatPercent,
    change: 'points',
    lowerIsBetter: true,
  },
  { label: 'Plans', value: (r) => r.plans, format: formatCount, change: 'absolute' },
  {
    label: 'Migrations started',
    value: (r) => r.migrations.started,
    format: formatCount,
    change: 'absolute',
  },
  {
    label: 'succeeded',
    level: 1,
    value: (r) => r.migrations.succeeded,
    format: formatCount,
    change: 'absolute',
  },
  { label: 'failed', level: 1, value: (r) => r.migrations.failed, format: formatCount, change: 'absolute' },
  {
    label: 'rolled back',
    level: 1,
    value: (r) => r.migrations.rolled_back,
    format: formatCount,
    change: 'absolute',
  },
  { label: 'GB moved', value: (r) => r.gb_moved, format: formatGb, change: 'absolute' },
  {
    label: 'Peak migration bandwidth',
    value: (r) => r.peak_bandwidth_mbps,
    format: formatMbps,
    change: 'absolute',
  },
];

/** The rows of the comparison table, constraint violations last. */
export function comparisonRows(result: SimulationResult): ComparisonRow[] {
  const { baseline, placid } = result.runs;
  const rows = METRICS.map((m) => metricRow(m, m.value(baseline), m.value(placid)));
  const broken = [baseline.violations.length, placid.violations.length];
  rows.push({
    label: 'Constraint violations',
    level: 0,
    baseline: formatCount(broken[0]),
    placid: formatCount(broken[1]),
    change: broken.some((n) => n > 0) ? 'MUST BE 0' : 'none',
    trend: broken.some((n) => n > 0) ? 'alarm' : 'same',
  });
  return rows;
}

function metricRow(m: Metric, before: number, after: number): ComparisonRow {
  return {
    label: m.label,
    level: m.level ?? 0,
    baseline: m.format(before),
    placid: m.format(after),
    change: describeChange(m, before, after),
    trend: !m.lowerIsBetter ? 'neutral' : after < before ? 'better' : after > before ? 'worse' : 'same',
  };
}

function describeChange(m: Metric, before: number, after: number): string {
  const delta = after - before;
  if (delta === 0) return 'same';
  const sign = delta > 0 ? '+' : MINUS;
  if (m.change === 'points') return `${sign}${formatPercent(Math.abs(delta)).slice(0, -1)} pp`;
  if (m.change === 'relative' && before !== 0)
    return `${sign}${formatPercent(Math.abs(delta / before) * 100)}`;
  return `${sign}${m.format(Math.abs(delta))}`;
}
