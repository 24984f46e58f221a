import type { HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';
import { defineFilter, PASS, reject, type Verdict } from '../filter.js';
import { hostRatios, type RatioSource, roundForDisplay } from '../ratios.js';

/**
 * Removed from Nova in Train (Placement's VCPU inventory does this job); kept for running without
 * the Placement pre-filter. Passes hosts whose vCPUs, overcommitted by cpu_allocation_ratio, still
 * have room for the flavor; a host reporting no vCPUs passes (Nova assumes broken CPU collection).
 * Nova also stores the limit in `host.limits['vcpu']`; Placid does not (host states are shared by
 * concurrent requests and nothing here reads it).
 */
export const CoreFilter = defineFilter({ name: 'CoreFilter', check: coreRule(hostRatios('cpu')) });

/** The vCPU rule at the ratio `source` gives (shared with AggregateCoreFilter): pass, or why not. */
export function coreRule<S>(source: RatioSource<S>) {
  const MORE_THAN_PHYSICAL = reject<S>(
    (host, spec) =>
      `the flavor needs ${spec.flavor.vcpus} vCPUs but the host has only ${host.vcpus_total} in total (overcommit never lets one instance exceed the physical count)`,
  );
  const NO_ROOM = reject<S>((host, spec, state, ctx) => {
    const ratio = source.ratio(host, state, ctx.config);
    const limit = host.vcpus_total * ratio;
    return (
      `host has ${roundForDisplay(limit - host.vcpus_used)} vCPUs left: ${host.vcpus_total} × cpu_allocation_ratio ${ratio} ` +
      `(${source.origin(host, ctx.config)}) = ${roundForDisplay(limit)}, minus ${host.vcpus_used} in use; the flavor needs ${spec.flavor.vcpus}`
    );
  });
  return (host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): Verdict<S> => {
    if (!host.vcpus_total) return PASS;
    const requested = spec.flavor.vcpus;
    const limit = host.vcpus_total * source.ratio(host, state, ctx.config);
    // Only with a meaningful limit: an instance never overcommits against itself.
    if (limit > 0 && requested > host.vcpus_total) return MORE_THAN_PHYSICAL;
    return limit - host.vcpus_used >= requested ? PASS : NO_ROOM;
  };
}
