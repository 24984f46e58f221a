/**
 * The engine's `claim` hook over the fleet store: Placement's PUT /allocations as one conditional
 * UpdateItem. A refused claim makes the engine try the next alternate (Nova's claim-and-retry).
 */
import type { SchedulerConfig } from '../config/options.js';
import type { ClaimHost } from '../engine/scheduler.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { type ClaimRequest, claimLimits } from '../store/claims.js';
import type { FleetStore } from '../store/fleetStore.js';

/**
 * What one instance of `spec` holds on its host, as Placement would allocate it: the flavor's vCPUs
 * and RAM, and root (unless booted from volume) + ephemeral + swap rounded up to GB. The instance
 * uuid is the claim id, so a retried claim is idempotent and the host's next report retires it.
 */
export function claimRequestFor(spec: RequestSpec, instanceUuid: string): ClaimRequest {
  const f = spec.flavor;
  const root = spec.is_bfv ? 0 : f.root_gb;
  return {
    vcpus: f.vcpus,
    memory_mb: f.memory_mb,
    disk_gb: root + f.ephemeral_gb + Math.ceil(f.swap / 1024),
    claim_id: instanceUuid,
  };
}

export interface ClaimedHost {
  host: string;
  nodename: string;
  instance_uuid: string;
}

/** A claim hook that also remembers what it claimed and how many races it lost. */
export interface TrackedClaim {
  claim: ClaimHost;
  /** Every successful claim of this attempt, in order. */
  readonly made: ClaimedHost[];
  /** Claims refused because the host had no room left (another scheduler got there first). */
  conflicts(): number;
}

/** The engine's claim hook for one scheduling attempt, against `store` with Nova's limits from `config`. */
export function storeClaim(store: Pick<FleetStore, 'claimResources'>, config: SchedulerConfig): TrackedClaim {
  const made: ClaimedHost[] = [];
  let conflicts = 0;
  const claim = async (host: HostState, spec: RequestSpec, instanceUuid: string): Promise<boolean> => {
    const request = claimRequestFor(spec, instanceUuid);
    const ok = await store.claimResources(host.host, host.nodename, request, claimLimits(host, config));
    if (ok) made.push({ host: host.host, nodename: host.nodename, instance_uuid: instanceUuid });
    else conflicts++;
    return ok;
  };
  return { claim, made, conflicts: () => conflicts };
}
