import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import { allocationRatio } from '../ratios.js';
import type { HostWeigher } from '../weigher.js';

/**
 * The per-host numbers Nova's resource weighers take as raw weights (one slot each in the fleet's
 * fact rows, factRows.ts).
 *
 * Why gather them: at 100k hosts a weigher pass over the survivors is dominated by fetching each
 * host object from memory (cache and TLB misses; the hosts span tens of MB), not by arithmetic.
 * Weighing weigher by weigher fetches every host once per weigher; the fact rows are read once
 * per fleet, and the weighers then read packed values (about 4× less time at 100k hosts).
 */
export type HostFact =
  | 'freeRamMb'
  | 'freeDiskMb'
  | 'freeVcpus'
  | 'ioOps'
  | 'instances'
  | 'failedBuilds'
  | 'hypervisorVersion'
  | 'pciScarcity';

/** A weigher whose raw weight is one host fact: `weigh(host)` must equal that fact for the host. */
export interface FactWeigher<S = unknown> extends HostWeigher<S> {
  readonly fact: HostFact;
}

export function defineFactWeigher<S = undefined>(weigher: FactWeigher<S>): FactWeigher<S> {
  return weigher;
}

export function isFactWeigher<S>(weigher: HostWeigher<S>): weigher is FactWeigher<S> {
  return typeof (weigher as Partial<FactWeigher<S>>).fact === 'string';
}

/** Free vCPUs after overcommit (CPUWeigher). */
export function freeVcpus(host: HostState, config: SchedulerConfig): number {
  return host.vcpus_total * allocationRatio(host, 'cpu', config) - host.vcpus_used;
}

/** Nova caps the device count so a host with no free device still scores above one with 99+. */
const MAX_DEVICES = 100;

/** Fewer free PCI devices give more (PCIWeigher). */
export function pciScarcity(host: HostState): number {
  let free = 0;
  const pools = host.pci_stats?.pools;
  if (pools) for (let i = 0; i < pools.length; i++) free += pools[i].count;
  return MAX_DEVICES - Math.min(free, MAX_DEVICES - 1);
}
