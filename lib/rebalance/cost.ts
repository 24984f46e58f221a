/**
 * Cost of one live migration. Bytes = RAM, plus the local disks (root + ephemeral + swap) when the
 * disk is not on shared storage. Duration follows libvirt's order: the disk is copied first, then
 * memory by pre-copy rounds — round 0 sends all RAM, each later round re-sends what the guest
 * dirtied during the previous one (dirty rate × round time) — until what is left fits in the
 * allowed pause (max_downtime_ms), which is the final stop-and-copy. Pre-copy converges only when
 * the migration rate exceeds the dirty rate; otherwise (or after MAX_PRECOPY_ROUNDS) the
 * migration is marked non-converging, as it would need auto-converge or post-copy.
 * Units: Mbit/s = 10^6 bit/s; flavor GB and MB are GiB and MiB, as in Nova.
 */
import type { RebalanceSettings } from './settings.js';

/** Beyond this many rounds a pre-copy is not converging in practice. */
export const MAX_PRECOPY_ROUNDS = 30;
const MIB = 2 ** 20;
const GIB = 2 ** 30;

export interface MigratingVm {
  flavor: { memory_mb: number; root_gb: number; ephemeral_gb?: number; swap?: number };
  shared_storage: boolean;
}

export type CostSettings = Pick<
  RebalanceSettings,
  | 'migration_bandwidth_mbps'
  | 'link_bandwidth_mbps'
  | 'dirty_rate_mbps'
  | 'max_downtime_ms'
  | 'max_block_migration_gb'
  | 'mode'
>;

/** 'refused' outside approve mode; 'needs_approval' in approve mode (the operator decides). */
export type BlockMigration = 'none' | 'allowed' | 'needs_approval' | 'refused';

export interface MigrationCost {
  memoryBytes: number;
  diskBytes: number;
  /** RAM + local disk: the plan's estimated_bytes. */
  bytes: number;
  /** Everything sent, including re-sent dirty pages. */
  transferBytes: number;
  rateMbps: number;
  precopyRounds: number;
  seconds: number;
  /** The final pause (stop-and-copy) in milliseconds. */
  downtimeMs: number;
  converges: boolean;
  block: BlockMigration;
  reason: string;
}

/**
 * The rate one migration gets: its own limit, or its share of the link when `concurrentOnLink`
 * migrations share the busier of the two hosts' links.
 * @example migrationRateMbps({ migration_bandwidth_mbps: 2500, link_bandwidth_mbps: 10000 }, 8) // 1250
 */
export function migrationRateMbps(
  settings: Pick<CostSettings, 'migration_bandwidth_mbps' | 'link_bandwidth_mbps'>,
  concurrentOnLink = 1,
): number {
  return Math.min(
    settings.migration_bandwidth_mbps,
    settings.link_bandwidth_mbps / Math.max(1, concurrentOnLink),
  );
}

/**
 * Estimates bytes, seconds and convergence of migrating `vm`.
 * @example migrationCost({ flavor: { memory_mb: 8192, root_gb: 40 }, shared_storage: false }, settings)
 */
export function migrationCost(
  vm: MigratingVm,
  settings: CostSettings,
  options: { concurrentOnLink?: number; dirtyRateMbps?: number } = {},
): MigrationCost {
  const { flavor } = vm;
  const memoryBytes = flavor.memory_mb * MIB;
  const diskGib = vm.shared_storage
    ? 0
    : flavor.root_gb + (flavor.ephemeral_gb ?? 0) + (flavor.swap ?? 0) / 1024;
  const diskBytes = diskGib * GIB;
  const rateMbps = migrationRateMbps(settings, options.concurrentOnLink);
  const rate = (rateMbps * 1e6) / 8;
  const dirty = ((options.dirtyRateMbps ?? settings.dirty_rate_mbps) * 1e6) / 8;
  const memory = precopy(memoryBytes, rate, dirty, settings.max_downtime_ms / 1000);
  const diskSeconds = diskBytes / rate;
  const block = blockVerdict(diskGib, settings);
  const seconds = diskSeconds + memory.seconds;
  const reason = describe({
    memoryBytes,
    diskGib,
    rateMbps,
    diskSeconds,
    memory,
    block,
    settings,
    dirty,
    rate,
  });
  return {
    memoryBytes,
    diskBytes,
    bytes: memoryBytes + diskBytes,
    transferBytes: diskBytes + memory.sent,
    rateMbps,
    precopyRounds: memory.rounds,
    seconds,
    downtimeMs: memory.pauseSeconds * 1000,
    converges: memory.converges,
    block,
    reason,
  };
}

interface Precopy {
  rounds: number;
  sent: number;
  seconds: number;
  pauseSeconds: number;
  converges: boolean;
}

/**
 * Simulates pre-copy rounds; rate and dirty rate in bytes/s, the allowed pause in seconds. When it
 * does not converge, the figures are those of a switchover forced at that point: a lower bound.
 */
export function precopy(memoryBytes: number, rate: number, dirty: number, maxPause: number): Precopy {
  let remaining = memoryBytes;
  let rounds = 0;
  let sent = 0;
  let seconds = 0;
  let converges = true;
  while (remaining / rate > maxPause) {
    if (rounds >= MAX_PRECOPY_ROUNDS || dirty >= rate) {
      converges = false;
      break;
    }
    const t = remaining / rate;
    seconds += t;
    sent += remaining;
    rounds++;
    // The guest cannot dirty more memory than it has.
    remaining = Math.min(memoryBytes, dirty * t);
  }
  const pauseSeconds = remaining / rate;
  return { rounds, sent: sent + remaining, seconds: seconds + pauseSeconds, pauseSeconds, converges };
}

function blockVerdict(diskGib: number, settings: CostSettings): BlockMigration {
  if (diskGib <= 0) return 'none';
  if (diskGib <= settings.max_block_migration_gb) return 'allowed';
  return settings.mode === 'approve' ? 'needs_approval' : 'refused';
}

function describe(c: {
  memoryBytes: number;
  diskGib: number;
  rateMbps: number;
  diskSeconds: number;
  memory: Precopy;
  block: BlockMigration;
  settings: CostSettings;
  dirty: number;
  rate: number;
}): string {
  const size = `${gib(c.memoryBytes / GIB)} RAM${c.diskGib > 0 ? ` + ${gib(c.diskGib)} local disk` : ''}`;
  const disk = c.diskGib > 0 ? `disk copy ${secs(c.diskSeconds)}, ` : '';
  const mem = c.memory.converges
    ? `memory ${c.memory.rounds} pre-copy round(s) + ${ms(c.memory.pauseSeconds)} pause`
    : `memory pre-copy does not converge (${c.dirty >= c.rate ? `dirty rate ${mbps((c.dirty * 8) / 1e6)} >= migration rate` : `${MAX_PRECOPY_ROUNDS} rounds leave a ${ms(c.memory.pauseSeconds)} pause`}, limit ${c.settings.max_downtime_ms} ms)`;
  const head = `${size} at ${mbps(c.rateMbps)}: ${disk}${mem}; ≈ ${secs(c.diskSeconds + c.memory.seconds)}`;
  if (c.block === 'refused' || c.block === 'needs_approval') {
    const verdict = c.block === 'refused' ? 'refused' : 'needs approval';
    return `${head}; block migration of ${gib(c.diskGib)} exceeds max_block_migration_gb ${c.settings.max_block_migration_gb}: ${verdict}`;
  }
  return head;
}

const gib = (v: number) => `${v.toFixed(1)} GiB`;
const secs = (v: number) => `${Math.round(v)} s`;
const ms = (v: number) => `${Math.round(v * 1000)} ms`;
const mbps = (v: number) => `${Math.round(v).toLocaleString('en-US')} Mbit/s`;
