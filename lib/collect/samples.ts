/**
 * Samples from the metric table, step by step. A sample is written only when steal, CPU and load5
 * are all known at that step; otherwise the step is a gap, with the missing fields and why they
 * are missing. Nothing is interpolated or defaulted: a VM without data has no samples.
 */
import type { Lookup, MetricTable } from './metricTable.js';
import type { QueryName } from './queries.js';

export type GapReason = 'source_error' | 'counter_reset' | 'invalid_value' | 'no_data';

export interface DataGap {
  from: string;
  to: string;
  reason: GapReason;
  metrics: string[];
}

export interface Sample {
  ts: string;
  steal_percent: number;
  cpu_percent: number;
  load5: number;
}

/** Stolen and busy vCPUs of a VM at a step, for a host's steal from its VMs. */
export interface VmDemand {
  stolen: number;
  busy: number;
}

export interface SampleSet {
  samples: Sample[];
  gaps: DataGap[];
}

type Field = { value: number } | { reason: GapReason };

// When several fields are missing for different reasons, the gap names the most telling one.
const PRIORITY: GapReason[] = ['source_error', 'counter_reset', 'invalid_value', 'no_data'];
/** Rates extrapolated by Prometheus can overshoot by a hair; beyond this a value is invalid. */
const PERCENT_TOLERANCE = 1;

export function vmSamples(
  table: MetricTable,
  uuid: string,
  vcpus: number,
  grid: readonly number[],
): SampleSet & { demand: Map<number, VmDemand> } {
  const demand = new Map<number, VmDemand>();
  const toPercent = (vcpuCount: number) => (vcpus > 0 ? percent((100 * vcpuCount) / vcpus) : undefined);
  const steps = grid.map((t) => {
    const guestSteal = counter(table, 'vm_steal', 'vm_resets', uuid, t, (v) => v);
    const steal =
      'value' in guestSteal
        ? guestSteal
        : pick(
            guestSteal,
            counter(table, 'vm_wait', 'vm_wait_resets', uuid, t, (v) => v),
          );
    const busy = counter(table, 'vm_busy', 'vm_resets', uuid, t, (v) => v);
    if ('value' in steal && 'value' in busy) demand.set(t, { stolen: steal.value, busy: busy.value });
    return {
      t,
      fields: {
        steal_percent: convert(steal, toPercent),
        cpu_percent: convert(busy, toPercent),
        load5: gauge(table.get('vm_load5', uuid, t), load),
      },
    };
  });
  return { ...assemble(steps), demand };
}

export function hostSamples(
  table: MetricTable,
  nodeId: string,
  grid: readonly number[],
  vmDemand: (t: number) => VmDemand[],
  fallbackToVms: boolean,
): SampleSet {
  const steps = grid.map((t) => {
    let steal = gauge(table.get('host_steal', nodeId, t), percent);
    if (!('value' in steal) && fallbackToVms) {
      const fromVms = stealOfDemand(vmDemand(t));
      if (fromVms !== undefined) steal = { value: fromVms };
    }
    return {
      t,
      fields: {
        steal_percent: steal,
        cpu_percent: counter(table, 'host_cpu', 'host_resets', nodeId, t, percent),
        load5: gauge(table.get('host_load5', nodeId, t), load),
      },
    };
  });
  return assemble(steps);
}

/** Stolen vCPUs as a share of demanded ones (stolen + busy), in percent; 0 when nothing was demanded. */
export function stealOfDemand(vms: readonly VmDemand[]): number | undefined {
  if (vms.length === 0) return undefined;
  const stolen = vms.reduce((s, v) => s + v.stolen, 0);
  const demand = vms.reduce((s, v) => s + v.stolen + v.busy, 0);
  return demand > 0 ? percent((100 * stolen) / demand) : 0;
}

function counter(
  table: MetricTable,
  valueQuery: QueryName,
  resetQuery: QueryName,
  entity: string,
  t: number,
  check: (v: number) => number | undefined,
): Field {
  const value = gauge(table.get(valueQuery, entity, t), check);
  if (!('value' in value)) return value;
  const resets = table.get(resetQuery, entity, t);
  return resets.status === 'ok' && resets.value > 0 ? { reason: 'counter_reset' } : value;
}

function gauge(lookup: Lookup, check: (v: number) => number | undefined): Field {
  if (lookup.status === 'failed') return { reason: 'source_error' };
  if (lookup.status !== 'ok') return { reason: 'no_data' };
  const value = check(lookup.value);
  return value === undefined ? { reason: 'invalid_value' } : { value };
}

function convert(field: Field, check: (v: number) => number | undefined): Field {
  if (!('value' in field)) return field;
  const value = check(field.value);
  return value === undefined ? { reason: 'invalid_value' } : { value };
}

function pick(a: { reason: GapReason }, b: Field): Field {
  if ('value' in b) return b;
  return PRIORITY.indexOf(a.reason) <= PRIORITY.indexOf(b.reason) ? a : b;
}

function percent(v: number): number | undefined {
  if (!Number.isFinite(v) || v < -PERCENT_TOLERANCE || v > 100 + PERCENT_TOLERANCE) return undefined;
  return Math.min(100, Math.max(0, v));
}

function load(v: number): number | undefined {
  return Number.isFinite(v) && v >= 0 ? v : undefined;
}

interface Step {
  t: number;
  fields: Record<'steal_percent' | 'cpu_percent' | 'load5', Field>;
}

function assemble(steps: readonly Step[]): SampleSet {
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
