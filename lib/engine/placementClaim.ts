import type { SchedulerConfig } from '../config/options.js';
import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';
import { type PlacementQuery, placementRequest } from './prefilter/resourceRequest.js';
import { ResourceFit } from './prefilter/resources.js';

interface Held {
  /** The host as the request found it, before any of its instances were placed there. */
  base: HostState;
  /** The allocation request claimed for each instance on this host (Placement's candidate[0]). */
  query: PlacementQuery;
  /** What this request's instances already hold on the host, by resource class. */
  used: Map<string, number>;
}

/**
 * Placement's PUT /allocations for the instances of one request, in memory: the scheduler's claim
 * when no external one is given. A multi-create's later instance is refused on a host that can no
 * longer fit it once this request's earlier allocations there count as used, and Nova then tries
 * the next sorted host. Placement's amounts are not the host-state consumption: swap counts as
 * disk, and a boot-from-volume root disk does not.
 *
 * The first claim on a host always succeeds: the host passed the same Placement check before any
 * allocation of this request existed.
 */
export class PlacementClaims {
  private readonly queries: readonly PlacementQuery[];
  private readonly held = new Map<string, Held>();

  constructor(
    spec: RequestSpec,
    private readonly config: SchedulerConfig,
  ) {
    this.queries = placementRequest(spec, config).queries;
  }

  readonly claim = (host: HostState): boolean => {
    const key = `${host.host}\u0000${host.nodename}`;
    let held = this.held.get(key);
    if (held === undefined) {
      held = { base: host, query: this.candidateQuery(host), used: new Map() };
      this.held.set(key, held);
    } else {
      const now = withUsage(held.base, held.used);
      if (new ResourceFit(this.config).misfit(now, held.query.resources)) return false;
    }
    for (const r of held.query.resources) held.used.set(r.rc, (held.used.get(r.rc) ?? 0) + r.amount);
    return true;
  };

  /** The query whose candidate comes first for the host: the primary one unless only the VCPU fallback fits. */
  private candidateQuery(host: HostState): PlacementQuery {
    if (this.queries.length === 1) return this.queries[0];
    const fit = new ResourceFit(this.config);
    const traits = new Set(host.traits);
    const found = this.queries.find(
      (q) =>
        fit.misfit(host, q.resources) === null &&
        q.required.every((t) => traits.has(t)) &&
        !q.forbidden.some((t) => traits.has(t)),
    );
    return found ?? this.queries[0];
  }
}

/** The host with this request's allocations added to the usage Placement sees. */
function withUsage(host: HostState, used: ReadonlyMap<string, number>): HostState {
  const inventories = { ...host.inventories };
  for (const [rc, amount] of used) {
    const inv = inventories[rc];
    if (inv && !FLAT.has(rc)) inventories[rc] = { ...inv, used: inv.used + amount };
  }
  return {
    ...host,
    // Placement's MEMORY_MB usage is what free RAM does not cover, so an allocation lowers free RAM.
    free_ram_mb: host.free_ram_mb - (used.get('MEMORY_MB') ?? 0),
    vcpus_used: host.vcpus_used + (used.get('VCPU') ?? 0),
    disk_mb_used: host.disk_mb_used + (used.get('DISK_GB') ?? 0) * 1024,
    inventories,
  };
}

/** The classes Placement derives from the host's own fields rather than `inventories`. */
const FLAT = new Set(['VCPU', 'MEMORY_MB', 'DISK_GB']);
