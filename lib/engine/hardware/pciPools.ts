import type { NumaCell, PciPool } from '../../model/hostState.js';
import type { PciRequest } from '../../model/requestSpec.js';

/** Spec keys Placement matches, which pool matching skips (Nova's `ignored_spec_tags`). */
const IGNORED_SPEC_KEYS = new Set(['resource_class', 'traits', 'rp_uuids']);
const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

/** A pool attribute as Nova sees it: pool tags are flattened into the pool. */
export function poolValue(pool: PciPool, key: string): unknown {
  if (key !== 'tags' && key !== 'count' && Object.hasOwn(pool, key)) {
    const v = (pool as unknown as Record<string, unknown>)[key];
    // A null field is a value the device does not report: Nova's pool has no such key.
    if (v !== undefined && v !== null) return v;
  }
  return pool.tags && Object.hasOwn(pool.tags, key) ? pool.tags[key] : undefined;
}

/** Nova's `pci_device_prop_match`: some spec whose every key equals the pool's value (case-insensitive). */
export function specMatches(pool: PciPool, specs: readonly Record<string, string>[]): boolean {
  return specs.some((spec) => {
    for (const [key, want] of Object.entries(spec)) {
      if (IGNORED_SPEC_KEYS.has(key)) continue;
      const have = poolValue(pool, key);
      if (have === undefined || have === null || String(have).toLowerCase() !== want.toLowerCase())
        return false;
    }
    return true;
  });
}

/** Keys every Nova pool dict has, whatever the device reports. */
const BASE_KEYS = ['vendor_id', 'product_id', 'numa_node', 'count'];

/**
 * How many keys Nova's pool dict has: the base keys plus each named value, where a field left null
 * (no physnet, say) adds no key and a tag repeating a field's name is the same key.
 */
function keyCount(pool: PciPool): number {
  const names = new Set(pool.tags ? Object.keys(pool.tags) : []);
  for (const [k, v] of Object.entries(pool))
    if (v !== undefined && v !== null && k !== 'tags' && !BASE_KEYS.includes(k)) names.add(k);
  return BASE_KEYS.length + names.size;
}

/**
 * Nova keeps pools sorted by their number of keys (fewer tags first), which decides which pool a
 * request drains first. Stable, so equal pools keep the operator's order.
 */
export function orderedPools(pools: readonly PciPool[]): PciPool[] {
  return pools
    .map((pool, i) => ({ pool, i, n: keyCount(pool) }))
    .sort((a, b) => a.n - b.n || a.i - b.i)
    .map((x) => x.pool);
}

/** Where the guest landed, for numa_policy: host NUMA cell ids, plus the host cells for `socket`. */
export interface PciNuma {
  cellIds: readonly number[];
  hostCells?: readonly NumaCell[] | null;
}

/** Which step of Nova's `_filter_pools` left too few devices. */
export type PoolStage = 'spec' | 'numa' | 'kind';

export type PoolChoice = { ok: true; pools: number[] } | { ok: false; stage: PoolStage; available: number };

/**
 * Nova's `_filter_pools` over pool indices with current `counts`: the pools a request may draw
 * from, in the order it draws, or the step at which fewer than `request.count` devices remained.
 */
export function choosePools(
  pools: readonly PciPool[],
  counts: readonly number[],
  request: PciRequest,
  numa: PciNuma | null,
): PoolChoice {
  const total = (idx: number[]) => idx.reduce((s, i) => s + counts[i], 0);
  let idx = pools.map((_, i) => i).filter((i) => specMatches(pools[i], request.spec));
  if (total(idx) < request.count) return { ok: false, stage: 'spec', available: total(idx) };
  if (numa && numa.cellIds.length > 0) {
    idx = byNumaPolicy(pools, idx, counts, request, numa);
    if (total(idx) < request.count) return { ok: false, stage: 'numa', available: total(idx) };
  }
  idx = idx.filter((i) => kindAllowed(pools[i], request.spec));
  if (total(idx) < request.count) return { ok: false, stage: 'kind', available: total(idx) };
  return { ok: true, pools: idx };
}

/** Nova's `_filter_pools_for_numa_cells`: the strictest affinity that gives enough devices. */
function byNumaPolicy(
  pools: readonly PciPool[],
  idx: number[],
  counts: readonly number[],
  request: PciRequest,
  numa: PciNuma,
): number[] {
  const policy = request.numa_policy ?? 'legacy';
  const enough = (list: number[]) => list.reduce((s, i) => s + counts[i], 0) >= request.count;
  const node = (i: number) => pools[i].numa_node ?? null;
  const local = idx.filter((i) => numa.cellIds.includes(node(i) as number));
  if (policy === 'required' || enough(local)) return local;
  if (policy === 'socket') return idx.filter((i) => sameSocket(node(i), numa));
  // Devices that report no NUMA node count as local from here on.
  const localOrUnknown = idx.filter((i) => node(i) === null || numa.cellIds.includes(node(i) as number));
  if (policy === 'legacy' || enough(localOrUnknown)) return localOrUnknown;
  const isLocal = (i: number) => (node(i) === null || numa.cellIds.includes(node(i) as number) ? 0 : 1);
  return [...idx].sort((a, b) => isLocal(a) - isLocal(b));
}

/** Nova's `_filter_pools_for_socket_affinity`: nothing qualifies unless every host cell has a socket. */
function sameSocket(node: number | null, numa: PciNuma): boolean {
  const cells = numa.hostCells ?? [];
  if (cells.length === 0 || cells.some((c) => c.socket === undefined || c.socket === null)) return false;
  const sockets = new Set(cells.filter((c) => numa.cellIds.includes(c.id)).map((c) => c.socket));
  return cells.some((c) => c.id === node && sockets.has(c.socket));
}

/** PFs, vDPA and remote-managed devices only serve requests that ask for them; live_migratable must agree. */
function kindAllowed(pool: PciPool, specs: readonly Record<string, string>[]): boolean {
  const devType = poolValue(pool, 'dev_type');
  if (devType === 'type-PF' && specs.every((s) => s.dev_type !== 'type-PF')) return false;
  if (devType === 'vdpa' && specs.every((s) => s.dev_type !== 'vdpa')) return false;
  const remote = isTrue(poolValue(pool, 'remote_managed'));
  if (remote && specs.every((s) => !isTrue(s.remote_managed))) return false;
  const migratable = poolValue(pool, 'live_migratable');
  if (specs.every((s) => s.live_migratable === 'true')) return migratable === 'true';
  if (specs.every((s) => s.live_migratable === 'false')) return migratable === 'false';
  return true;
}

function isTrue(v: unknown): boolean {
  return v !== undefined && v !== null && TRUE_STRINGS.has(String(v).trim().toLowerCase());
}
