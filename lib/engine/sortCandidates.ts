import type { RequestSpec } from '../model/requestSpec.js';
import type { Candidates } from './candidates.js';
import type { EngineContext } from './context.js';
import { sieveFilters } from './sieve.js';
import {
  type Plugins,
  remainingOrder,
  type SortedHosts,
  type SortLog,
  type SortOptions,
  selectionOrder,
  weightsOnly,
} from './sortHosts.js';
import { weighCandidates } from './weighCandidates.js';

/**
 * sortHosts for a decision that is not explained, over candidate positions of the fleet, for a
 * request that narrows nothing (no requested_destination host, ignore_hosts or forced hosts): the
 * same hosts in the same order, with host objects read only where a filter or weigher needs them
 * and no list built but the returned one. `weights` is the decision's buffer (at least the fleet's
 * size); `remaining` reads it and `candidates`, so it must be called before they are reused.
 */
export async function sortCandidates(
  plugins: Plugins,
  candidates: Candidates,
  spec: RequestSpec,
  ctx: EngineContext,
  sort: SortOptions,
  log: SortLog | null,
  weights: Float64Array,
): Promise<SortedHosts> {
  const counts = await sieveFilters(plugins.filters, candidates, spec, ctx);
  log?.counts.push(...counts);
  const n = candidates.count;
  if (n === 0) return { hosts: [], weighed: null, remaining: null };

  weighCandidates(plugins.weighers, candidates, spec, ctx, weights);
  const survivorWeights = weights.subarray(0, n);
  const { order } = selectionOrder(survivorWeights, ctx.config.filter_scheduler, sort);
  const { hosts: fleet, positions } = candidates;
  const hosts = order.map((j) => fleet[positions[j]]);
  const remaining =
    order.length < n
      ? () => [...hosts, ...remainingOrder(survivorWeights, order).map((j) => fleet[positions[j]])]
      : null;
  const weighed = sort.weights ? weightsOnly(survivorWeights, (j) => fleet[positions[j]]) : null;
  return { hosts, weighed, remaining };
}
