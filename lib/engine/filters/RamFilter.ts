import type { HostState } from '../../model/hostState.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { allocationRatio, ratioOrigin, roundForDisplay } from '../ratios.js';

const TOO_LITTLE_RAM = reject((host, spec, _state, ctx) =>
  ramShortfall(
    host,
    spec.flavor.memory_mb,
    allocationRatio(host, 'ram', ctx.config),
    ratioOrigin(host, 'ram', ctx.config),
  ),
);

/**
 * Removed from Nova in Train (Placement's MEMORY_MB inventory does this job); kept for running
 * without the Placement pre-filter. Passes hosts whose RAM, overcommitted by the host's
 * ram_allocation_ratio, still has room for the flavor. Nova also stores that limit in
 * `host.limits['memory_mb']` for the compute claim; Placid does not: host states are shared by
 * concurrent requests, so filters must not write to them, and nothing here reads the limit.
 */
export const RamFilter = defineFilter({
  name: 'RamFilter',
  check: (host, spec, _state, ctx) =>
    ramFits(host, spec.flavor.memory_mb, allocationRatio(host, 'ram', ctx.config)) ? PASS : TOO_LITTLE_RAM,
});

export function ramFits(host: HostState, requestedMb: number, ratio: number): boolean {
  const total = host.total_usable_ram_mb;
  // An instance may overcommit against other instances, never against itself.
  if (total < requestedMb) return false;
  return total * ratio - (total - host.free_ram_mb) >= requestedMb;
}

export function ramShortfall(host: HostState, requestedMb: number, ratio: number, origin: string): string {
  const total = host.total_usable_ram_mb;
  if (total < requestedMb) {
    return `the flavor needs ${requestedMb} MB of RAM but the host has only ${total} MB in total (overcommit never lets one instance exceed physical RAM)`;
  }
  const limit = total * ratio;
  const used = total - host.free_ram_mb;
  return (
    `host has ${roundForDisplay(limit - used)} MB of RAM left: ${total} MB × ram_allocation_ratio ${ratio} (${origin}) = ` +
    `${roundForDisplay(limit)} MB, minus ${roundForDisplay(used)} MB in use; the flavor needs ${requestedMb} MB`
  );
}
