import type { NumaTopology, PciPool, PciStats } from '../../model/hostState.js';
import type { PciRequest } from '../../model/requestSpec.js';
import { choosePools, orderedPools, type PciNuma, type PoolStage } from './pciPools.js';

/**
 * Where the guest's NUMA cells landed: the host cell ids (from the NUMA fit) and the host topology
 * (read only by the `socket` policy). Without it numa_policy is not applied, as in Nova's
 * PciPassthroughFilter.
 */
export function pciNuma(cellIds: readonly number[], host: NumaTopology | null | undefined): PciNuma {
  return { cellIds, hostCells: host?.cells ?? null };
}

interface Shortfall {
  request: number;
  stage: PoolStage;
  available: number;
}

/** Nova's `apply_requests` on a scratch copy of the counts: the counts left, or the first shortfall. */
function consume(
  pools: readonly PciPool[],
  requests: readonly PciRequest[],
  numa: PciNuma | null,
): number[] | Shortfall {
  const counts = pools.map((p) => p.count);
  for (let r = 0; r < requests.length; r++) {
    const choice = choosePools(pools, counts, requests[r], numa);
    if (!choice.ok) return { request: r, stage: choice.stage, available: choice.available };
    let left = requests[r].count;
    for (const i of choice.pools) {
      const take = Math.min(left, counts[i]);
      counts[i] -= take;
      left -= take;
      if (left === 0) break;
    }
  }
  return counts;
}

/**
 * Nova's `PciDeviceStats.support_requests`: true when the pools can satisfy every request in turn
 * (each draws from what the earlier ones left), honouring numa_policy when `numa` is given.
 */
export function supportsRequests(
  stats: PciStats,
  requests: readonly PciRequest[],
  numa: PciNuma | null = null,
): boolean {
  return Array.isArray(consume(orderedPools(stats.pools), requests, numa));
}

/**
 * Nova's `PciDeviceStats.apply_requests`: new pools with the requested devices taken (the input is
 * not changed), or null when they do not fit. Drained pools stay, with count 0.
 */
export function applyRequests(
  stats: PciStats,
  requests: readonly PciRequest[],
  numa: PciNuma | null = null,
): PciStats | null {
  const pools = orderedPools(stats.pools);
  const counts = consume(pools, requests, numa);
  if (!Array.isArray(counts)) return null;
  const left = new Map(pools.map((p, i) => [p, counts[i]]));
  // Back in the operator's order: only the counts change.
  return {
    ...stats,
    pools: stats.pools.map((p) => (left.get(p) === p.count ? p : { ...p, count: left.get(p)! })),
  };
}

/** Why the pools cannot satisfy the requests, or null when they can. */
export function explainRequests(
  stats: PciStats,
  requests: readonly PciRequest[],
  numa: PciNuma | null = null,
): string | null {
  const result = consume(orderedPools(stats.pools), requests, numa);
  if (Array.isArray(result)) return null;
  const req = requests[result.request];
  const alias = req.alias_name ? ` (alias ${req.alias_name})` : '';
  const spec = req.spec
    .map((s) =>
      Object.entries(s)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    )
    .join(' or ');
  const earlier = result.request > 0 ? ' left by the earlier requests' : '';
  let where = '';
  if (result.stage === 'numa')
    where = ` on NUMA node(s) ${numa?.cellIds.join(',')} (numa_policy ${req.numa_policy ?? 'legacy'})`;
  if (result.stage === 'kind')
    where = ' of a kind the request may use (PFs, vDPA and remote-managed only on request)';
  return (
    `PCI request ${result.request}${alias} needs ${req.count} device(s) matching ${spec}; ` +
    `host has ${result.available} free${where}${earlier}`
  );
}
