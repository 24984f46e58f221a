import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';

export type ResourceKind = 'cpu' | 'ram' | 'disk';

/**
 * The allocation ratio in force for a host: `[DEFAULT] <kind>_allocation_ratio` when set (the compute
 * node's config), else what the host reports, else `initial_<kind>_allocation_ratio`.
 */
export function allocationRatio(host: HostState, kind: ResourceKind, config: SchedulerConfig): number {
  const d = config.DEFAULT;
  if (kind === 'cpu')
    return d.cpu_allocation_ratio ?? host.cpu_allocation_ratio ?? d.initial_cpu_allocation_ratio;
  if (kind === 'ram')
    return d.ram_allocation_ratio ?? host.ram_allocation_ratio ?? d.initial_ram_allocation_ratio;
  return d.disk_allocation_ratio ?? host.disk_allocation_ratio ?? d.initial_disk_allocation_ratio;
}
