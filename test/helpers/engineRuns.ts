import { listCandidates } from '../../lib/engine/candidates.js';
import type { EngineContext } from '../../lib/engine/context.js';
import type { HostFilter } from '../../lib/engine/filter.js';
import type { FilterCount } from '../../lib/engine/filterHandler.js';
import { sieveFilters } from '../../lib/engine/sieve.js';
import { weighCandidates } from '../../lib/engine/weighCandidates.js';
import type { HostWeigher } from '../../lib/engine/weigher.js';
import type { HostState } from '../../lib/model/hostState.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';

/** The engine's filter handler over a host list: the survivors, in order, and the counts. */
export async function filterList(
  filters: readonly HostFilter<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): Promise<{ hosts: HostState[]; counts: FilterCount[] }> {
  const c = listCandidates(hosts, new Int32Array(hosts.length));
  const counts = await sieveFilters(filters, c, spec, ctx);
  return { hosts: Array.from(c.positions.subarray(0, c.count), (i) => hosts[i]), counts };
}

/** The engine's weighing over a host list: each host's final weight, in list order. */
export function weighList(
  weighers: readonly HostWeigher<unknown>[],
  hosts: readonly HostState[],
  spec: RequestSpec,
  ctx: EngineContext,
): Float64Array {
  const c = listCandidates(hosts, new Int32Array(hosts.length));
  const weights = new Float64Array(hosts.length);
  weighCandidates(weighers, c, spec, ctx, weights);
  return weights;
}
