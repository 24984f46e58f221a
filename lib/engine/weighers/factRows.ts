import type { SchedulerConfig } from '../../config/options.js';
import type { HostState } from '../../model/hostState.js';
import { freeVcpus, type HostFact, pciScarcity } from './hostFacts.js';

/** Where each fact sits in a host's row. */
export const FACT_SLOT: Readonly<Record<HostFact, number>> = {
  freeRamMb: 0,
  freeDiskMb: 1,
  freeVcpus: 2,
  ioOps: 3,
  instances: 4,
  failedBuilds: 5,
  hypervisorVersion: 6,
  pciScarcity: 7,
};

/** Facts per host: 8 doubles, one 64-byte cache line (weighCandidates reads exactly these 8 slots). */
export const FACT_WIDTH = 8;

/**
 * Every host's facts (the raw weights of the fact weighers, hostFacts.ts), one row per host: host
 * i's fact f is at i × FACT_WIDTH + FACT_SLOT[f]. Row by row because the weighers read the facts
 * of a few survivors scattered over a large fleet, and all of one host's facts then arrive in one
 * cache line; a column per fact would fetch a line per fact per host. Throws where those weighers'
 * `weigh` would.
 */
export function gatherFactRows(hosts: readonly HostState[], config: SchedulerConfig): Float64Array {
  const rows = new Float64Array(hosts.length * FACT_WIDTH);
  for (let i = 0; i < hosts.length; i++) writeFactRow(rows, i, hosts[i], config);
  return rows;
}

/** Host `h`'s facts into row `i` of `rows`; throws where the fact weighers' `weigh` would. */
export function writeFactRow(rows: Float64Array, i: number, h: HostState, config: SchedulerConfig): void {
  const base = i * FACT_WIDTH;
  rows[base] = h.free_ram_mb;
  rows[base + 1] = h.free_disk_mb;
  rows[base + 2] = freeVcpus(h, config);
  rows[base + 3] = h.num_io_ops;
  rows[base + 4] = h.num_instances;
  rows[base + 5] = h.failed_builds;
  rows[base + 6] = h.hypervisor_version ?? 0;
  rows[base + 7] = pciScarcity(h);
}
