import type { HostState } from '../../model/hostState.js';
import { OnDemandRows } from '../onDemandRows.js';
import type { AmountsByKind, ResourceFit } from './resources.js';

/** The largest amount a limit records; requests above it are checked exactly. */
export const MAX_LIMIT = 2 ** 31 - 1;

/**
 * For each host, the largest whole number of VCPU, MEMORY_MB and DISK_GB that fits it under the
 * configured ratios and reservations (0: none fits), and whether the host is out of the running
 * regardless of amounts (nova-compute disabled, or no inventory yet).
 *
 * Why: Placement's fit test reads three host figures per class from host objects that span tens of
 * MB at 100k hosts, and reading them dominated the pre-filter. The limits read them once per fleet
 * (and fit config), in one pass with nothing kept but the limits. The fit of a whole amount
 * n is `n <= limit`, one small read per class. Exact because the fit is monotone: `used + n` never
 * decreases as n grows, so every amount up to the largest fitting one fits too.
 */
export interface FitLimits {
  vcpu: Int32Array;
  ram: Int32Array;
  disk: Int32Array;
  /** 1 when nova-compute is disabled or the host reports no inventory yet. */
  blocked: Uint8Array;
  /** `vcpu`, or -1 on a blocked host: one read tells both (amounts are never negative). */
  open: Int32Array;
}

/**
 * The fit limits of a fleet, written for every host when a second request asks (FleetIndex keeps
 * one table per fit config): a fleet asked once, as by one CLI run, never reads them again, so its
 * one request checks its members' fields directly instead (a cold 20k-host pass of limit searches
 * cost more than the request itself). A host being explained gets its own limits written alone.
 */
export class FitLimitTable {
  private readonly limits: FitLimits;
  private readonly rows: OnDemandRows;
  private asked = false;

  constructor(
    private readonly hosts: readonly HostState[],
    private readonly fit: ResourceFit,
    from: { table: FitLimitTable; stale: readonly number[] } | null = null,
  ) {
    const write = (i: number) => this.write(i);
    if (from !== null) {
      const { vcpu, ram, disk, blocked, open } = from.table.limits;
      this.limits = {
        vcpu: vcpu.slice(),
        ram: ram.slice(),
        disk: disk.slice(),
        blocked: blocked.slice(),
        open: open.slice(),
      };
      this.rows = from.table.rows.copyFor(write, from.stale);
      this.asked = from.table.asked;
      return;
    }
    const n = hosts.length;
    this.limits = {
      vcpu: new Int32Array(n),
      ram: new Int32Array(n),
      disk: new Int32Array(n),
      blocked: new Uint8Array(n),
      open: new Int32Array(n),
    };
    this.rows = new OnDemandRows(n, write);
  }

  /**
   * This table for `hosts`, this table's hosts with the ones at `stale` positions replaced: a copy
   * of what is written (this table may still be read), those positions written again when asked for.
   */
  carriedTo(hosts: readonly HostState[], stale: readonly number[]): FitLimitTable {
    return new FitLimitTable(hosts, this.fit, { table: this, stale });
  }

  /**
   * collectFitting over the hosts at `members` (null: every host) for whole `amounts`
   * (limitsApply): by the limits, or on the first call by the hosts' own fields, the same rule
   * (a whole amount fits exactly when it is at most its limit).
   */
  collect(out: Int32Array, amounts: AmountsByKind, members: Int32Array | null): number {
    if (this.asked) return collectFitting(out, this.all(), amounts, members);
    this.asked = true;
    const { hosts, fit } = this;
    const n = members === null ? hosts.length : members.length;
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const i = members === null ? j : members[j];
      const h = hosts[i];
      if (!h.service.disabled && !fit.notReady(h) && fit.fitsAll(h, amounts)) out[kept++] = i;
    }
    return kept;
  }

  /** The limits, written for at least the host at position `i`. */
  of(i: number): FitLimits {
    this.rows.one(i);
    return this.limits;
  }

  /** The limits of every host. */
  all(): FitLimits {
    this.rows.all();
    return this.limits;
  }

  private write(i: number): void {
    const { limits, fit } = this;
    const h = this.hosts[i];
    const vcpu = fit.largestVcpus(h);
    const blocked = h.service.disabled || fit.notReady(h);
    limits.vcpu[i] = vcpu;
    limits.ram[i] = fit.largestRam(h);
    limits.disk[i] = fit.largestDisk(h);
    limits.blocked[i] = blocked ? 1 : 0;
    limits.open[i] = blocked ? -1 : vcpu;
  }
}

/**
 * The common request in one pass: of the hosts at `members` (ascending positions: the hosts whose
 * membership passes the aggregate rules, see FleetIndex.passingMembers; null for every host), the
 * ones that are not blocked and that fit the whole `amounts` (limitsApply, and no other class).
 * Writes their positions to `out` and returns how many.
 */
export function collectFitting(
  out: Int32Array,
  limits: FitLimits,
  amounts: AmountsByKind,
  members: Int32Array | null,
): number {
  const { open, ram: ramLimit, disk: diskLimit } = limits;
  const { vcpu, ram, disk } = amounts;
  let kept = 0;
  if (members === null) {
    const n = open.length;
    for (let i = 0; i < n; i++) {
      if (vcpu <= open[i] && ram <= ramLimit[i] && disk <= diskLimit[i]) out[kept++] = i;
    }
    return kept;
  }
  const n = members.length;
  for (let j = 0; j < n; j++) {
    const i = members[j];
    if (vcpu <= open[i] && ram <= ramLimit[i] && disk <= diskLimit[i]) out[kept++] = i;
  }
  return kept;
}

/** True when the query's VCPU, MEMORY_MB and DISK_GB amounts are whole and within the limits' range. */
export function limitsApply(amounts: AmountsByKind): boolean {
  return wholeAmount(amounts.vcpu) && wholeAmount(amounts.ram) && wholeAmount(amounts.disk);
}

function wholeAmount(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_LIMIT;
}

/**
 * Placement's fit of `n` units of a class: within one allocation's cap (max_unit: the total) and,
 * added to what is used, within the capacity. False whatever `n` when the host has none of it.
 */
export function fitsWithin(total: number, used: number, capacity: number, n: number): boolean {
  return total > 0 && n <= total && used + n <= capacity;
}

/**
 * The largest n in 1..MAX_LIMIT with `fitsWithin(total, used, capacity, n)`, or 0. The headroom
 * estimate is right or off by rounding, so its neighbour usually settles it; otherwise a binary
 * search does (exact because the fit is monotone in n).
 */
export function largestWithin(total: number, used: number, capacity: number): number {
  const estimate = Math.floor(Math.min(total, capacity - used));
  const guess = estimate >= 1 ? Math.min(estimate, MAX_LIMIT) : 1;
  let lo = 0; // fits (0 asks for nothing)
  let hi = MAX_LIMIT + 1; // does not fit
  if (fitsWithin(total, used, capacity, guess)) {
    if (guess === MAX_LIMIT || !fitsWithin(total, used, capacity, guess + 1)) return guess;
    lo = guess + 1;
  } else {
    if (guess === 1 || fitsWithin(total, used, capacity, guess - 1)) return guess - 1;
    hi = guess - 1;
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fitsWithin(total, used, capacity, mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
