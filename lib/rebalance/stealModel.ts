/**
 * A proportional-share model of CPU steal. Assumptions, all deliberate simplifications:
 * - A VM's demand is what it used plus what was stolen from it, in vCPUs (cpu% and steal% of its
 *   vCPUs). Demand a VM never got to express (work it gave up on) is not seen, so demand is a lower bound.
 * - A host delivers at most its capacity C in vCPUs. When the total demand D exceeds C, the
 *   hypervisor's fair scheduler shares the shortfall evenly: every VM loses the same fraction
 *   (D - C) / D of its demand, so every VM's predicted steal is max(0, 1 - C/D) × 100.
 * - Pinning, NUMA and CPU-frequency effects are folded into C by calibration
 *   (effectiveCapacity): a host near saturation seen stealing s % of demand D delivered
 *   D × (1 - s/100). Steal on a host far from saturation is housekeeping and calibrates nothing.
 * - Moving a VM moves its whole demand; its demand does not change with its host.
 */

/** Steal below this is hypervisor housekeeping noise, too small to calibrate capacity from. */
export const MEASURABLE_STEAL_PERCENT = 1;

/**
 * A VM's CPU demand in vCPUs: used + stolen, capped at its vCPU count.
 * @example demandVcpus(60, 20, 4) // 3.2
 */
export function demandVcpus(cpuPercent: number, stealPercent: number, vcpus: number): number {
  return Math.min(vcpus, ((cpuPercent + stealPercent) / 100) * vcpus);
}

/**
 * Predicted steal (percent) of every VM on a host with `demand` vCPUs of demand and `capacity`
 * vCPUs to give. Non-decreasing in demand, non-increasing in capacity.
 * @example predictedStealPercent(20, 16) // 20
 */
export function predictedStealPercent(demand: number, capacity: number): number {
  if (demand <= 0) return 0;
  if (capacity <= 0) return 100;
  // (D - C) / D rather than 1 - C/D: exact for round figures (20 on 16 gives 20, not 19.999…).
  return (Math.max(0, demand - capacity) / demand) * 100;
}

/**
 * Demand at or above this share of vcpus_total is "near saturation": only there can the fair
 * scheduler's shortfall explain steal. 10 % below vcpus_total leaves room for the host's own
 * overhead (kernel threads, vhost, emulator threads) that takes CPUs from the VMs.
 */
export const NEAR_SATURATION_SHARE = 0.9;

/**
 * What a host can deliver, in vCPUs.
 *
 * Rule: calibrate from the measured steal (the host delivered demand × (1 - steal)) only when the
 * steal is measurable AND demand is near vcpus_total (>= NEAR_SATURATION_SHARE of it), or
 * vcpus_total is unknown (0). Steal is time a runnable vCPU waited for a logical CPU, so it comes
 * from a shortage of CPUs only when runnable vCPUs approach the CPU count; below that, 1-3 % of
 * steal is housekeeping, and calibrating from it would model a half-idle host as saturated (every
 * vCPU of demand added would look like steal). Otherwise the host delivered all its demand, so its
 * capacity is at least that, and at least vcpus_total.
 * @example effectiveCapacity(10, 2, 32) // 32: 2 % steal at a third of the CPUs is housekeeping
 */
export function effectiveCapacity(demand: number, measuredStealPercent: number, vcpusTotal: number): number {
  const measurable = measuredStealPercent >= MEASURABLE_STEAL_PERCENT && demand > 0;
  const nearSaturation = vcpusTotal <= 0 || demand >= NEAR_SATURATION_SHARE * vcpusTotal;
  if (measurable && nearSaturation) {
    return demand * (1 - Math.min(100, measuredStealPercent) / 100);
  }
  return Math.max(vcpusTotal, demand);
}

/** A host in the model: its effective capacity and current demand, both in vCPUs. */
export interface HostLoad {
  capacityVcpus: number;
  demandVcpus: number;
}

/** The host's predicted steal now. */
export function hostSteal(host: HostLoad): number {
  return predictedStealPercent(host.demandVcpus, host.capacityVcpus);
}

/** The host after `delta` vCPUs of demand arrive (positive) or leave (negative). */
export function withDemand(host: HostLoad, delta: number): HostLoad {
  return { capacityVcpus: host.capacityVcpus, demandVcpus: Math.max(0, host.demandVcpus + delta) };
}

/** Predicted steal after removing VMs with these demands. */
export function stealAfterRemoving(host: HostLoad, demands: readonly number[]): number {
  return hostSteal(withDemand(host, -sum(demands)));
}

/** Predicted steal after adding VMs with these demands. */
export function stealAfterAdding(host: HostLoad, demands: readonly number[]): number {
  return hostSteal(withDemand(host, sum(demands)));
}

/**
 * The demand (vCPUs) that must leave so predicted steal is at most `targetPercent`: the host may
 * keep C / (1 - target) of demand. 0 when it is already there.
 * @example excessDemand({ capacityVcpus: 16, demandVcpus: 20 }, 5) // 20 - 16/0.95 ≈ 3.16
 */
export function excessDemand(host: HostLoad, targetPercent: number): number {
  if (hostSteal(host) <= targetPercent) return 0;
  if (targetPercent >= 100) return 0;
  const allowed = host.capacityVcpus / (1 - targetPercent / 100);
  return Math.max(0, host.demandVcpus - allowed);
}

/** The effect of moving `demand` vCPUs from `source` to `dest`, in predicted steal percent. */
export interface MoveEffect {
  sourceBefore: number;
  sourceAfter: number;
  destBefore: number;
  destAfter: number;
  /** The moved VM's own relief: its steal at the source now minus at the destination after. */
  movedVmGain: number;
}

/**
 * Predicts a move's effect on both hosts and on the moved VM.
 * @example moveEffect({capacityVcpus: 16, demandVcpus: 20}, {capacityVcpus: 16, demandVcpus: 8}, 4)
 * // source 20 % → 0 %, destination 0 % → 0 %, moved VM gains 20 points
 */
export function moveEffect(source: HostLoad, dest: HostLoad, demand: number): MoveEffect {
  const sourceBefore = hostSteal(source);
  const destAfter = stealAfterAdding(dest, [demand]);
  return {
    sourceBefore,
    sourceAfter: stealAfterRemoving(source, [demand]),
    destBefore: hostSteal(dest),
    destAfter,
    movedVmGain: sourceBefore - destAfter,
  };
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
