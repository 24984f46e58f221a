import type { EngineContext } from '../../lib/engine/context.js';
import type { HostFilter } from '../../lib/engine/filter.js';
import { type FilterCount, runFilters } from '../../lib/engine/filterHandler.js';
import type { HostWeigher } from '../../lib/engine/weigher.js';
import { weighHosts } from '../../lib/engine/weighing.js';
import type { HostState } from '../../lib/model/hostState.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';

/** The engine's filter handler over a host list: the survivors, in order, and the counts. */
export async function filterList(
  filters: readonly HostFilter<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): Promise<{ hosts: HostState[]; counts: FilterCount[] }> {
  return runFilters(filters, hosts, spec, ctx);
}

/** The engine's weighing over a host list: each host's final weight, in list order. */
export function weighList(
  weighers: readonly HostWeigher<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): Float64Array {
  return weighHosts(weighers, hosts, spec, ctx);
}
