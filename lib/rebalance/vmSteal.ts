/**
 * A VM's steal in the two units the rebalancer uses. The steal model works in the share of its
 * demand a VM loses ("lost share": stolen / (used + stolen)), which under proportional share is
 * the same for every VM of a host and is what host steal means. A guest reports steal as a share
 * of its vCPUs' time (what the thresholds are about): lost share × demand / vCPUs. A half-idle VM
 * losing 20 % of its demand shows 10 % steal.
 * A VM may lose more than its host's share (pinning, NUMA); that excess is kept when the host's
 * share changes and dropped when the VM moves.
 */
import type { VmDetection } from './types.js';

export interface VmShare {
  demandVcpus: number;
  vcpus: number;
  /** Its lost share of demand now, percent. */
  lostPercent: number;
}

/** The VM's demand and lost share, or null without usable data. */
export function vmShare(vm: VmDetection, vcpus: number): VmShare | null {
  if (vm.demandVcpus === null || vm.stolenVcpus === null || !(vcpus > 0)) return null;
  const lostPercent = vm.demandVcpus > 0 ? (vm.stolenVcpus / vm.demandVcpus) * 100 : 0;
  return { demandVcpus: vm.demandVcpus, vcpus, lostPercent };
}

/** Steal as the guest sees it when it loses `lostPercent` of its demand. */
export function guestSteal(share: VmShare, lostPercent: number): number {
  return Math.min(100, Math.max(0, (lostPercent * share.demandVcpus) / share.vcpus));
}

/** Guest steal when the VM stays and its host's lost share goes from `hostBefore` to `hostAfter`. */
export function stealStaying(share: VmShare, hostBefore: number, hostAfter: number): number {
  return guestSteal(share, Math.max(0, hostAfter + share.lostPercent - hostBefore));
}

/**
 * The host lost share (percent) below which the VM's guest steal drops under `exitPercent`
 * without moving; 0 or less when no relief of its host can get it there.
 */
export function recoveryTarget(share: VmShare, hostBefore: number, exitPercent: number): number {
  if (share.demandVcpus <= 0) return Number.POSITIVE_INFINITY;
  return (exitPercent * share.vcpus) / share.demandVcpus - (share.lostPercent - hostBefore);
}
