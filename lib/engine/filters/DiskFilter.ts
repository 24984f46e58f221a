import type { HostState } from '../../model/hostState.js';
import type { Flavor } from '../../model/requestSpec.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { allocationRatio, ratioOrigin, roundForDisplay } from '../ratios.js';

const TOO_LITTLE_DISK = reject((host, spec, _state, ctx) =>
  diskShortfall(
    host,
    spec.flavor,
    allocationRatio(host, 'disk', ctx.config),
    ratioOrigin(host, 'disk', ctx.config),
  ),
);

/**
 * Removed from Nova in Train (Placement's DISK_GB inventory does this job); kept for running without
 * the Placement pre-filter. Passes hosts whose local disk, overcommitted by disk_allocation_ratio,
 * has room for root + ephemeral + swap (swap counts here, unlike in consume_from_request). Nova also
 * stores the limit in `host.limits['disk_gb']`; Placid does not (host states are shared by
 * concurrent requests and nothing here reads it).
 */
export const DiskFilter = defineFilter({
  name: 'DiskFilter',
  check: (host, spec, _state, ctx) =>
    diskFits(host, spec.flavor, allocationRatio(host, 'disk', ctx.config)) ? PASS : TOO_LITTLE_DISK,
});

/** The disk a flavor needs on the host, in MB. */
export function requestedDiskMb(flavor: Flavor): number {
  return 1024 * (flavor.root_gb + flavor.ephemeral_gb) + flavor.swap;
}

export function diskFits(host: HostState, flavor: Flavor, ratio: number): boolean {
  const requested = requestedDiskMb(flavor);
  const total = host.total_usable_disk_gb * 1024;
  // An instance may overcommit against other instances, never against itself.
  if (total < requested) return false;
  return total * ratio - (total - host.free_disk_mb) >= requested;
}

export function diskShortfall(host: HostState, flavor: Flavor, ratio: number, origin: string): string {
  const requested = requestedDiskMb(flavor);
  const need = `${requested} MB (root ${flavor.root_gb} GB + ephemeral ${flavor.ephemeral_gb} GB + swap ${flavor.swap} MB)`;
  const total = host.total_usable_disk_gb * 1024;
  if (total < requested) {
    return `the flavor needs ${need} of disk but the host has only ${total} MB in total (overcommit never lets one instance exceed physical disk)`;
  }
  const limit = total * ratio;
  const used = total - host.free_disk_mb;
  return (
    `host has ${roundForDisplay(limit - used)} MB of disk left: ${total} MB × disk_allocation_ratio ${ratio} (${origin}) = ` +
    `${roundForDisplay(limit)} MB, minus ${roundForDisplay(used)} MB in use; the flavor needs ${need}`
  );
}
