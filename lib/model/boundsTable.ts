/**
 * Realistic ranges for every number Placid accepts from a report or a request, in one table so the
 * schemas, the fast host-file path, docs/reliability.md and the tests agree. The largest
 * products the engine and the claims compute (a capacity × an allocation ratio, a flavor × a
 * request's instance count) stay far below Number.MAX_SAFE_INTEGER, so arithmetic on stored values
 * can never lose precision and DynamoDB can always marshal the result.
 *
 * No zod here: the CLI's fast path reads this table without loading the schema library.
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
