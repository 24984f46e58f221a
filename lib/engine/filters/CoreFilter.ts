import type { HostState } from '../../model/hostState.js';
import { defineFilter, PASS, reject } from '../filter.js';
import { allocationRatio, ratioOrigin, roundForDisplay } from '../ratios.js';

const TOO_FEW_CPUS = reject((host, spec, _state, ctx) =>
  coreShortfall(
    host,
    spec.flavor.vcpus,
    allocationRatio(host, 'cpu', ctx.config),
    ratioOrigin(host, 'cpu', ctx.config),
  ),
);

/**
 * Removed from Nova in Train (Placement's VCPU inventory does this job); kept for running without
 * the Placement pre-filter. Passes hosts whose vCPUs, overcommitted by cpu_allocation_ratio, still
 * have room for the flavor; a host reporting no vCPUs passes (Nova assumes broken CPU collection).
 * Nova also stores the limit in `host.limits['vcpu']`; Placid does not (host states are shared by
 * concurrent requests and nothing here reads it).
 */
export const CoreFilter = defineFilter({
  name: 'CoreFilter',
  check: (host, spec, _state, ctx) =>
    coresFit(host, spec.flavor.vcpus, allocationRatio(host, 'cpu', ctx.config)) ? PASS : TOO_FEW_CPUS,
});

export function coresFit(host: HostState, requested: number, ratio: number): boolean {
  if (!host.vcpus_total) return true;
  const limit = host.vcpus_total * ratio;
  // Only with a meaningful limit: an instance never overcommits against itself.
  if (limit > 0 && requested > host.vcpus_total) return false;
  return limit - host.vcpus_used >= requested;
}

export function coreShortfall(host: HostState, requested: number, ratio: number, origin: string): string {
  const limit = host.vcpus_total * ratio;
  if (limit > 0 && requested > host.vcpus_total) {
    return `the flavor needs ${requested} vCPUs but the host has only ${host.vcpus_total} in total (overcommit never lets one instance exceed the physical count)`;
  }
  return (
    `host has ${roundForDisplay(limit - host.vcpus_used)} vCPUs left: ${host.vcpus_total} × cpu_allocation_ratio ${ratio} ` +
    `(${origin}) = ${roundForDisplay(limit)}, minus ${host.vcpus_used} in use; the flavor needs ${requested}`
  );
}
