/**
 * Steps into samples and gaps: a step with every field known is a sample; the others become gaps,
 * consecutive steps with the same reason and missing fields merged into one.
 */
import type { DataGap, InstanceSample as Sample } from '../model/reports.js';

export type { DataGap, Sample };
/** Why a stretch has no samples: the report schema's list (lib/model/reportSchema.ts). */
export type GapReason = DataGap['reason'];

export interface SampleSet {
  samples: Sample[];
  gaps: DataGap[];
}

export type Field = { value: number } | { reason: GapReason };

/** When several fields are missing for different reasons, the gap names the most telling one. */
export const PRIORITY: GapReason[] = ['source_error', 'counter_reset', 'invalid_value', 'no_data'];

export interface Step {
  t: number;
  fields: Record<'steal_percent' | 'cpu_percent' | 'load5', Field>;
}

export function assemble(steps: readonly Step[]): SampleSet {
  const samples: Sample[] = [];
  const gaps: (DataGap & { key: string })[] = [];
  let open: (DataGap & { key: string }) | undefined;
  for (const { t, fields } of steps) {
    const ts = new Date(t).toISOString();
    const missing = Object.entries(fields).filter(
      (entry): entry is [string, { reason: GapReason }] => !('value' in entry[1]),
    );
    if (missing.length === 0) {
      const f = fields as Record<keyof Step['fields'], { value: number }>;
      samples.push({
        ts,
        steal_percent: f.steal_percent.value,
        cpu_percent: f.cpu_percent.value,
        load5: f.load5.value,
      });
      open = undefined;
      continue;
    }
    const reason = PRIORITY.find((r) => missing.some(([, m]) => m.reason === r)) ?? 'no_data';
    const metrics = missing.map(([name]) => name);
    const key = `${reason}:${metrics.join(',')}`;
    if (open && open.key === key) {
      open.to = ts;
    } else {
      open = { from: ts, to: ts, reason, metrics, key };
      gaps.push(open);
    }
  }
  return { samples, gaps: gaps.map(({ key: _key, ...gap }) => gap) };
}
