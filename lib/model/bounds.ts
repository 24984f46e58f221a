/**
 * The zod side of the realistic ranges (boundsTable.ts): numbers within a bound, with messages
 * that name the range, and the checks for stored host states.
 */
import * as z from 'zod';
import { BOUNDS, type Bound, type BoundName, describeBound } from './boundsTable.js';
import type { HostState } from './hostState.js';

export {
  BOUNDS,
  type Bound,
  type BoundName,
  describeBound,
  MAX_INSTANCES_PER_REQUEST,
} from './boundsTable.js';

/**
 * A zod number within `BOUNDS[name]`; the error names the range and the value, so a DLQ reason
 * says what to fix (the field path comes from zod).
 */
export function bounded(name: BoundName, options: { positive?: boolean } = {}): z.ZodNumber {
  const b: Bound = BOUNDS[name];
  const range = `${options.positive ? `above ${b.min} and up` : `${b.min}`} to ${b.max} ${b.unit}`;
  const what = `${b.integer ? 'a whole number' : 'a number'} from ${range}`;
  const message = (i: { input: unknown }) =>
    `must be ${what}, got ${JSON.stringify(i.input) ?? String(i.input)}`;
  const typeMessage = (i: { input: unknown }) =>
    i.input === undefined ? `is required (${what})` : `expected ${what}, got ${JSON.stringify(i.input)}`;
  let n = z.number({ error: typeMessage }).min(b.min, { error: message }).max(b.max, { error: message });
  if (options.positive) n = n.gt(b.min, { error: message });
  if (b.integer) n = n.int({ error: message });
  return n;
}

/** The HostState numbers the engine and the claims compute with, and the range each must be in. */
const HOST_STATE_BOUNDS: readonly [keyof HostState, BoundName][] = [
  ['vcpus_total', 'vcpus'],
  ['vcpus_used', 'vcpus'],
  ['total_usable_ram_mb', 'ram_mb'],
  ['free_ram_mb', 'free_ram_mb'],
  ['total_usable_disk_gb', 'disk_gb'],
  ['free_disk_mb', 'free_disk_mb'],
  ['disk_mb_used', 'disk_mb'],
  ['cpu_allocation_ratio', 'allocation_ratio'],
  ['ram_allocation_ratio', 'allocation_ratio'],
  ['disk_allocation_ratio', 'allocation_ratio'],
];

/**
 * The first capacity of a stored host state outside its range, described, or undefined. Ingest
 * refuses such reports; this is for readers of states stored before it did.
 */
export function hostStateOutOfBounds(state: HostState): string | undefined {
  for (const [field, name] of HOST_STATE_BOUNDS) {
    const value = state[field];
    if (value === null || value === undefined) continue;
    const b: Bound = BOUNDS[name];
    // Claims may push a used count past the reported total; only the magnitude matters here.
    const limit = field.endsWith('_used') || field.startsWith('free_') ? 2 * b.max : b.max;
    if (typeof value !== 'number' || !Number.isFinite(value) || value > limit || value < -limit) {
      return `${field} ${String(value)} is outside ${describeBound(b)}`;
    }
  }
  return undefined;
}

/**
 * A stored host whose capacities are out of range, made harmless for the engine: no capacity and
 * its service disabled with the reason, so every filter rejects it and explanations say why.
 */
export function quarantinedHostState(state: HostState, problem: string): HostState {
  return {
    ...state,
    vcpus_total: 0,
    vcpus_used: 0,
    total_usable_ram_mb: 0,
    free_ram_mb: 0,
    total_usable_disk_gb: 0,
    free_disk_mb: 0,
    disk_mb_used: 0,
    cpu_allocation_ratio: null,
    ram_allocation_ratio: null,
    disk_allocation_ratio: null,
    inventories: {},
    service: { ...state.service, disabled: true, disabled_reason: `stored report out of range: ${problem}` },
  };
}
