import type { NumaTopology } from '../../model/hostState.js';
import type { InstanceNumaTopology } from '../../model/requestSpec.js';

export interface NumaLimits {
  cpu_allocation_ratio: number;
  ram_allocation_ratio: number;
}

/**
 * `numa_fit_instance_to_host`: the host topology after placing the guest, or null when it does not fit.
 * (Implemented in the NUMA work; until then a guest topology never fits.)
 */
export function fitInstanceToHost(
  _host: NumaTopology,
  _instance: InstanceNumaTopology,
  _limits: NumaLimits,
): NumaTopology | null {
  return null;
}
