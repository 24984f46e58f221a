/**
 * Samples from the metric table, step by step. A sample is written only when steal, CPU and load5
 * are all known at that step; otherwise the step is a gap, with the missing fields and why they
 * are missing. Nothing is interpolated or defaulted: a VM without data has no samples.
 */
import type { Lookup, MetricTable } from './metricTable.js';
import type { QueryName } from './queries.js';
import { assemble, type Field, type GapReason, PRIORITY, type SampleSet } from './steps.js';

export type { DataGap, GapReason, Sample, SampleSet } from './steps.js';

/** Stolen and busy vCPUs of a VM at a step, for a host's steal from its VMs. */
export interface VmDemand {
  stolen: number;
  busy: number;
}

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

/**
 * A host's steal_percent as the report schema defines it: stolen vCPUs as a share of demanded ones
 * (stolen + busy), summed over its VMs, in percent; 0 when nothing was demanded. Summed, never a
 * mean of the VMs' percentages: a half-idle VM shows half the steal of a busy one while losing the
 * same share of its demand.
 */
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
