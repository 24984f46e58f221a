import type { HostState } from '../../model/hostState.js';
import type { RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';
import { defineFilter, PASS, reject, type Verdict } from '../filter.js';
import { hostRatios, type RatioSource, roundForDisplay } from '../ratios.js';

/**
 * Removed from Nova in Train (Placement's MEMORY_MB inventory does this job); kept for running
 * without the Placement pre-filter. Passes hosts whose RAM, overcommitted by the host's
 * ram_allocation_ratio, still has room for the flavor. Nova also stores that limit in
 * `host.limits['memory_mb']` for the compute claim; Placid does not: host states are shared by
 * concurrent requests, so filters must not write to them, and nothing here reads the limit.
 */
export const RamFilter = defineFilter({ name: 'RamFilter', check: ramRule(hostRatios('ram')) });

/** The RAM rule at the ratio `source` gives (shared with AggregateRamFilter): pass, or why not. */
export function ramRule<S>(source: RatioSource<S>) {
  const MORE_THAN_PHYSICAL = reject<S>(
    (host, spec) =>
      `the flavor needs ${spec.flavor.memory_mb} MB of RAM but the host has only ${host.total_usable_ram_mb} MB in total (overcommit never lets one instance exceed physical RAM)`,
  );
  const NO_ROOM = reject<S>((host, spec, state, ctx) => {
    const total = host.total_usable_ram_mb;
    const ratio = source.ratio(host, state, ctx.config);
    const limit = total * ratio;
    const used = total - host.free_ram_mb;
    return (
      `host has ${roundForDisplay(limit - used)} MB of RAM left: ${total} MB × ram_allocation_ratio ${ratio} (${source.origin(host, ctx.config)}) = ` +
      `${roundForDisplay(limit)} MB, minus ${roundForDisplay(used)} MB in use; the flavor needs ${spec.flavor.memory_mb} MB`
    );
  });
  return (host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): Verdict<S> => {
    const total = host.total_usable_ram_mb;
    const requested = spec.flavor.memory_mb;
    // An instance may overcommit against other instances, never against itself.
    if (total < requested) return MORE_THAN_PHYSICAL;
    const room = total * source.ratio(host, state, ctx.config) - (total - host.free_ram_mb);
    return room >= requested ? PASS : NO_ROOM;
  };
}
