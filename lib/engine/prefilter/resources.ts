import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import { DISK_GB, MEMORY_MB, type ResourceAmount, VCPU } from './resourceRequest.js';

/**
 * Placement's fit rule for each requested class: `used + requested <= (total - reserved) * ratio`,
 * plus min_unit / max_unit / step_size. Compute drivers report VCPU, MEMORY_MB and DISK_GB with
 * max_unit = total (one guest never gets more than the host has), derived here from Nova's host
 * fields; other classes (PCPU, CUSTOM_*) come from `host.inventories`.
 */
export class ResourceFit {
  private readonly cpuOverride: number;
  private readonly ramOverride: number;
  private readonly diskOverride: number;
  private readonly reservedCpus: number;
  private readonly reservedRam: number;
  private readonly reservedDiskMb: number;
  private readonly reservedDiskGb: number;
  private readonly initialCpu: number;
  private readonly initialRam: number;
  private readonly initialDisk: number;

  constructor(config: SchedulerConfig) {
    const d = config.DEFAULT;
    this.cpuOverride = d.cpu_allocation_ratio ?? Number.NaN;
    this.ramOverride = d.ram_allocation_ratio ?? Number.NaN;
    this.diskOverride = d.disk_allocation_ratio ?? Number.NaN;
    this.reservedCpus = d.reserved_host_cpus;
    this.reservedRam = d.reserved_host_memory_mb;
    this.reservedDiskMb = d.reserved_host_disk_mb;
    this.reservedDiskGb = Math.ceil(d.reserved_host_disk_mb / 1024);
    this.initialCpu = d.initial_cpu_allocation_ratio;
    this.initialRam = d.initial_ram_allocation_ratio;
    this.initialDisk = d.initial_disk_allocation_ratio;
  }

  /** No inventory at all yet: Nova's compute record is not ready (no RAM and no vCPUs reported). */
  notReady(host: HostState): boolean {
    return host.total_usable_ram_mb === 0 && host.vcpus_total === 0;
  }

  /** The first class the host cannot supply, or null. Allocation-free (hot path). */
  misfit(host: HostState, resources: readonly ResourceAmount[]): ResourceAmount | null {
    for (let k = 0; k < resources.length; k++) {
      if (!this.fits(host, resources[k])) return resources[k];
    }
    return null;
  }

  /** Why `r` does not fit the host, with the numbers Placement would have used. */
  explain(host: HostState, r: ResourceAmount): string {
    const v = this.inventory(host, r);
    const unit = r.kind === MEMORY_MB ? 'MB' : r.kind === DISK_GB ? 'GB' : r.rc;
    const needs = `needs ${r.amount} ${r.kind === MEMORY_MB ? 'MB RAM' : r.kind === DISK_GB ? 'GB disk' : r.rc}`;
    if (!v || v.total <= 0) return `${needs}; the host has no ${r.rc} inventory`;
    if (r.amount > v.maxUnit)
      return `${needs}; one allocation may take at most ${num(v.maxUnit)} ${unit} here (max_unit)`;
    if (r.amount < v.minUnit)
      return `${needs}; allocations here must be at least ${num(v.minUnit)} (min_unit)`;
    if (r.amount % v.stepSize !== 0)
      return `${needs}; allocations here must be a multiple of ${num(v.stepSize)} (step_size)`;
    const capacity = (v.total - v.reserved) * v.ratio;
    return (
      `${needs}; ${num(Math.max(capacity - v.used, 0))} ${unit} free of ${num(capacity)} (${num(v.total)} total - ` +
      `${num(v.reserved)} reserved, × ${RATIO_NAMES[Math.min(r.kind, 3)]} ${ratio(v.ratio)}; ${num(v.used)} used)`
    );
  }

  /** True when every class of `amounts` fits the host (the scan's yes/no form). */
  fitsAll(host: HostState, amounts: AmountsByKind): boolean {
    if (amounts.vcpu > 0 && !this.vcpuFits(host, amounts.vcpu)) return false;
    if (amounts.ram > 0 && !this.ramFits(host, amounts.ram)) return false;
    if (amounts.disk > 0 && !this.diskFits(host, amounts.disk)) return false;
    return this.othersFit(host, amounts);
  }

  /** True when every class of `amounts` other than VCPU, MEMORY_MB and DISK_GB fits the host. */
  othersFit(host: HostState, amounts: AmountsByKind): boolean {
    const others = amounts.others;
    for (let k = 0; k < others.length; k++) if (!inventoryFits(host, others[k])) return false;
    return true;
  }

  // One small method per class, so the JIT can inline the common three into the scan.
  private fits(host: HostState, r: ResourceAmount): boolean {
    if (r.kind === VCPU) return this.vcpuFits(host, r.amount);
    if (r.kind === MEMORY_MB) return this.ramFits(host, r.amount);
    if (r.kind === DISK_GB) return this.diskFits(host, r.amount);
    return inventoryFits(host, r);
  }

  private vcpuFits(h: HostState, n: number): boolean {
    return fitsWithin(h.vcpus_total, h.vcpus_used, this.vcpuCap(h), n);
  }

  private ramFits(h: HostState, n: number): boolean {
    return fitsWithin(h.total_usable_ram_mb, this.ramUsed(h), this.ramCap(h), n);
  }

  private diskFits(h: HostState, n: number): boolean {
    return fitsWithin(h.total_usable_disk_gb, this.diskUsed(h), this.diskCap(h), n);
  }

  private vcpuRatio(h: HostState): number {
    return pick(this.cpuOverride, h.cpu_allocation_ratio, this.initialCpu);
  }

  private ramRatio(h: HostState): number {
    return pick(this.ramOverride, h.ram_allocation_ratio, this.initialRam);
  }

  private diskRatio(h: HostState): number {
    return pick(this.diskOverride, h.disk_allocation_ratio, this.initialDisk);
  }

  private vcpuCap(h: HostState): number {
    return (h.vcpus_total - this.reservedCpus) * this.vcpuRatio(h);
  }

  // Nova's free_ram_mb already excludes the reservation, so Placement's usage adds it back.
  private ramUsed(h: HostState): number {
    return h.total_usable_ram_mb - h.free_ram_mb - this.reservedRam;
  }

  private ramCap(h: HostState): number {
    return (h.total_usable_ram_mb - this.reservedRam) * this.ramRatio(h);
  }

  private diskUsed(h: HostState): number {
    return (h.disk_mb_used - this.reservedDiskMb) / 1024;
  }

  private diskCap(h: HostState): number {
    return (h.total_usable_disk_gb - this.reservedDiskGb) * this.diskRatio(h);
  }

  /** The same numbers as `fits`, gathered for an explanation (null: no such inventory). */
  private inventory(host: HostState, r: ResourceAmount) {
    const flat = { minUnit: 1, stepSize: 1 };
    if (r.kind === VCPU) {
      const total = host.vcpus_total;
      const ratio = this.vcpuRatio(host);
      return { ...flat, total, used: host.vcpus_used, reserved: this.reservedCpus, ratio, maxUnit: total };
    }
    if (r.kind === MEMORY_MB) {
      const total = host.total_usable_ram_mb;
      const ratio = this.ramRatio(host);
      return { ...flat, total, used: this.ramUsed(host), reserved: this.reservedRam, ratio, maxUnit: total };
    }
    if (r.kind === DISK_GB) {
      const total = host.total_usable_disk_gb;
      const ratio = this.diskRatio(host);
      return {
        ...flat,
        total,
        used: this.diskUsed(host),
        reserved: this.reservedDiskGb,
        ratio,
        maxUnit: total,
      };
    }
    const inv = host.inventories[r.rc];
    if (!inv) return null;
    const { total, used, reserved = 0, allocation_ratio = 1, min_unit = 1, step_size = 1 } = inv;
    const maxUnit = inv.max_unit ?? Number.POSITIVE_INFINITY;
    return {
      total,
      used,
      reserved,
      ratio: allocation_ratio,
      minUnit: min_unit,
      maxUnit,
      stepSize: step_size,
    };
  }
}

/**
 * A query's amounts split by how they are checked: the three classes every compute node reports
 * as plain numbers (0: not requested; Placement drops zero amounts), then any other class. Lets
 * the scan test the common three with no loop or dispatch per host.
 */
export interface AmountsByKind {
  vcpu: number;
  ram: number;
  disk: number;
  others: readonly ResourceAmount[];
}

export function amountsByKind(resources: readonly ResourceAmount[]): AmountsByKind {
  const amounts = { vcpu: 0, ram: 0, disk: 0, others: [] as ResourceAmount[] };
  for (const r of resources) {
    if (r.kind === VCPU) amounts.vcpu = r.amount;
    else if (r.kind === MEMORY_MB) amounts.ram = r.amount;
    else if (r.kind === DISK_GB) amounts.disk = r.amount;
    else amounts.others.push(r);
  }
  return amounts;
}

/**
 * Placement's fit of `n` units of a class: within one allocation's cap (max_unit: the total) and,
 * added to what is used, within the capacity. False whatever `n` when the host has none of it.
 */
function fitsWithin(total: number, used: number, capacity: number, n: number): boolean {
  return total > 0 && n <= total && used + n <= capacity;
}

/** Any other class (PCPU, CUSTOM_*): the host's reported inventory record. */
function inventoryFits(host: HostState, r: ResourceAmount): boolean {
  const n = r.amount;
  const inv = host.inventories[r.rc];
  if (inv === undefined || inv.total <= 0) return false;
  if (inv.used + n > (inv.total - (inv.reserved ?? 0)) * (inv.allocation_ratio ?? 1)) return false;
  if (n < (inv.min_unit ?? 1) || (inv.max_unit !== undefined && n > inv.max_unit)) return false;
  return inv.step_size === undefined || n % inv.step_size === 0;
}

/**
 * lib/engine/ratios.ts's precedence: the host's, `[DEFAULT] <kind>_allocation_ratio` (NaN: unset),
 * the initial one.
 */
function pick(configured: number, reported: number | null, initial: number): number {
  if (reported != null && !Number.isNaN(reported)) return reported;
  return Number.isNaN(configured) ? initial : configured;
}

const RATIO_NAMES = [
  'cpu_allocation_ratio',
  'ram_allocation_ratio',
  'disk_allocation_ratio',
  'allocation_ratio',
];

/** Python's float repr for a ratio (1 → "1.0"). */
function ratio(v: number): string {
  return Number.isInteger(v) ? v.toFixed(1) : String(v);
}

function num(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}
