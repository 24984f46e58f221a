import * as z from 'zod';
import type { HostState } from './hostState.js';

/**
 * Realistic ranges for every number Placid accepts from a report or a request, in one table so the
 * schemas, docs/reliability.md and the tests agree. The largest
 * products the engine and the claims compute (a capacity × an allocation ratio, a flavor × a
 * request's instance count) stay far below Number.MAX_SAFE_INTEGER, so arithmetic on stored values
 * can never lose precision and DynamoDB can always marshal the result.
 */

export interface Bound {
  min: number;
  max: number;
  /** Whole numbers only. */
  integer: boolean;
  /** What the value counts, for docs/reliability.md and error messages. */
  unit: string;
}

const bound = (min: number, max: number, integer: boolean, unit: string): Bound => ({
  min,
  max,
  integer,
  unit,
});

/**
 * Nova's `[scheduler] max_placement_results` default: the most allocation candidates Placement
 * returns, and so the most instances one request can usefully ask for. Larger multi-creates are
 * refused rather than left to run out of time or memory.
 */
export const MAX_INSTANCES_PER_REQUEST = 1000;

/** The ranges, by what they measure. */
export const BOUNDS = {
  /** Host or flavor vCPUs; the largest servers have a few thousand threads. */
  vcpus: bound(0, 65_536, false, 'vCPUs'),
  /** Host or flavor RAM: up to 64 TiB. */
  ram_mb: bound(0, 64 * 1024 * 1024, false, 'MiB'),
  /** Free RAM may be negative when a host is overcommitted; no further than its size. */
  free_ram_mb: bound(-64 * 1024 * 1024, 64 * 1024 * 1024, false, 'MiB'),
  /** Host or flavor disk: up to 1 PiB. */
  disk_gb: bound(0, 1024 * 1024, false, 'GiB'),
  disk_mb: bound(0, 1024 * 1024 * 1024, false, 'MiB'),
  free_disk_mb: bound(-1024 * 1024 * 1024, 1024 * 1024 * 1024, false, 'MiB'),
  /** Swap in MiB, as Nova's flavor keeps it. */
  swap_mb: bound(0, 64 * 1024 * 1024, false, 'MiB'),
  /** Allocation ratios; Nova's defaults are 16 / 1.5 / 1.0, and nothing sane is above 1000. */
  allocation_ratio: bound(0, 1000, false, 'ratio'),
  /** Instances on one host. */
  host_instances: bound(0, 100_000, true, 'instances'),
  /** Concurrent I/O-heavy operations on one host. */
  io_ops: bound(0, 100_000, true, 'operations'),
  failed_builds: bound(0, 1_000_000, true, 'builds'),
  /** Instances one request asks for (see MAX_INSTANCES_PER_REQUEST). */
  num_instances: bound(1, MAX_INSTANCES_PER_REQUEST, true, 'instances'),
  percent: bound(0, 100, false, 'percent'),
  /** The 5-minute load average. */
  load: bound(0, 1_000_000, false, 'runnable tasks'),
  /** Migration network throughput: up to 10 Tbit/s. */
  network_mbps: bound(0, 10_000_000, false, 'Mbit/s'),
  /** Host CPU, NUMA cell and socket numbers. */
  cpu_id: bound(0, 65_535, true, 'index'),
  /** Huge page sizes: up to 16 GiB pages. */
  page_size_kb: bound(1, 16 * 1024 * 1024, true, 'KiB'),
  /** Pages in a pool (64 TiB of 4 KiB pages). */
  page_count: bound(0, 2 ** 34, false, 'pages'),
  /** Devices in a PCI pool or asked for by one PCI request. */
  pci_devices: bound(0, 100_000, true, 'devices'),
  /** Placement inventories of any resource class. */
  inventory: bound(0, 2 ** 40, false, 'units'),
  /** Metric values (Nova's monitors); anything larger is not a measurement. */
  metric: bound(-(2 ** 40), 2 ** 40, false, 'value'),
  hypervisor_version: bound(0, 2 ** 40, true, 'version'),
} as const satisfies Record<string, Bound>;

export type BoundName = keyof typeof BOUNDS;

/** `[min, max] unit`, e.g. `0 to 65536 vCPUs`, as shown in errors and docs/reliability.md. */
export function describeBound(b: Bound): string {
  return `${b.min} to ${b.max}${b.integer ? ' (whole numbers)' : ''} ${b.unit}`;
}

// The zod side of the ranges: numbers within a bound, with messages that name the range, and the
// checks for stored host states.

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
