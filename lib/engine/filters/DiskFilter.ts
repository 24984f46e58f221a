import type { HostState } from '../../model/hostState.js';
import type { Flavor, RequestSpec } from '../../model/requestSpec.js';
import type { EngineContext } from '../context.js';
import { defineFilter, PASS, reject, type Verdict } from '../filter.js';
import { hostRatios, type RatioSource, roundForDisplay } from '../ratios.js';

/**
 * Removed from Nova in Train (Placement's DISK_GB inventory does this job); kept for running without
 * the Placement pre-filter. Passes hosts whose local disk, overcommitted by disk_allocation_ratio,
 * has room for root + ephemeral + swap (swap counts here, unlike in consume_from_request). Nova also
 * stores the limit in `host.limits['disk_gb']`; Placid does not (host states are shared by
 * concurrent requests and nothing here reads it).
 */
export const DiskFilter = defineFilter({ name: 'DiskFilter', check: diskRule(hostRatios('disk')) });

/** The disk a flavor needs on the host, in MB. */
function requestedDiskMb(flavor: Flavor): number {
  return 1024 * (flavor.root_gb + flavor.ephemeral_gb) + flavor.swap;
}

function needs(flavor: Flavor): string {
  return `${requestedDiskMb(flavor)} MB (root ${flavor.root_gb} GB + ephemeral ${flavor.ephemeral_gb} GB + swap ${flavor.swap} MB)`;
}

/** The disk rule at the ratio `source` gives (shared with AggregateDiskFilter): pass, or why not. */
export function diskRule<S>(source: RatioSource<S>) {
  const MORE_THAN_PHYSICAL = reject<S>(
    (host, spec) =>
      `the flavor needs ${needs(spec.flavor)} of disk but the host has only ${host.total_usable_disk_gb * 1024} MB in total (overcommit never lets one instance exceed physical disk)`,
  );
  const NO_ROOM = reject<S>((host, spec, state, ctx) => {
    const total = host.total_usable_disk_gb * 1024;
    const ratio = source.ratio(host, state, ctx.config);
    const limit = total * ratio;
    const used = total - host.free_disk_mb;
    return (
      `host has ${roundForDisplay(limit - used)} MB of disk left: ${total} MB × disk_allocation_ratio ${ratio} (${source.origin(host, ctx.config)}) = ` +
      `${roundForDisplay(limit)} MB, minus ${roundForDisplay(used)} MB in use; the flavor needs ${needs(spec.flavor)}`
    );
  });
  return (host: HostState, spec: RequestSpec, state: S, ctx: EngineContext): Verdict<S> => {
    const requested = requestedDiskMb(spec.flavor);
    const total = host.total_usable_disk_gb * 1024;
    // An instance may overcommit against other instances, never against itself.
    if (total < requested) return MORE_THAN_PHYSICAL;
    const room = total * source.ratio(host, state, ctx.config) - (total - host.free_disk_mb);
    return room >= requested ? PASS : NO_ROOM;
  };
}
