/**
 * The `[rebalance]` option group: detection thresholds, migration limits, the cost model's rates,
 * cooldown and blackout windows. Register it with `mergeOptionTables(OPTIONS, REBALANCE_OPTIONS)`,
 * resolve with `resolveConfig`, then check it with `parseRebalanceSettings` (settings.ts), which
 * adds the checks an OptionSpec cannot express (ranges, choices, windows, time zone).
 *
 * Units: percentages are 0..100; bandwidths are megabits per second (10^6 bit/s; note that Nova's
 * own `[libvirt] live_migration_bandwidth` is MiB/s); sizes are GB of 2^30 bytes like flavors.
 */
import type { OptionSpec } from '../config/options.js';
import type { ConfigOf } from '../config/table.js';

export { REBALANCE_MODES, type RebalanceMode } from '../model/plan.js';

export const REBALANCE_OPTIONS = {
  rebalance: {
    steal_threshold_percent: {
      type: 'float',
      default: 10,
      min: 0,
      help: 'A VM starts suffering when its steal stays above this in every minute of the sustained window (the common "steal > 10 % for 5 min" alert)',
    },
    steal_exit_threshold_percent: {
      type: 'float',
      default: 5,
      min: 0,
      help: 'A suffering VM recovers only when its mean steal over the window drops below this; half the entry threshold, so steal hovering around 10 % does not flap',
    },
    load5_per_vcpu_threshold: {
      type: 'float',
      default: 1.0,
      min: 0,
      help: 'load5 per vCPU that must also stay above this: steal without delayed work (runnable tasks waiting) is not a problem',
    },
    load5_per_vcpu_exit_threshold: {
      type: 'float',
      default: 0.8,
      min: 0,
      help: 'A suffering VM also recovers when its mean load5 per vCPU drops below this (its work is no longer delayed)',
    },
    sustain_minutes: {
      type: 'int',
      default: 10,
      min: 1,
      help: 'Length of the window a condition must hold over; twice the usual 5-minute alert, because a move costs more than a page',
    },
    sample_interval_seconds: {
      type: 'int',
      default: 60,
      min: 1,
      help: 'Expected spacing of samples; the window is split into buckets this long to measure coverage (faster agents simply fill buckets with several samples)',
    },
    min_coverage_percent: {
      type: 'float',
      default: 80,
      min: 1,
      help: "Share of the window buckets that must hold a usable sample (8 of 10 minutes by default): two lost reports are tolerated, a half-empty window is not evidence. Also the share of a host's VMs with usable data for their samples to stand for the host",
    },
    stale_sample_minutes: {
      type: 'int',
      default: 3,
      min: 1,
      help: 'Data whose newest usable sample is older than this is stale and never triggers action (three missed one-minute reports mean the agent or VM is down)',
    },
    host_steal_threshold_percent: {
      type: 'float',
      default: 5,
      min: 0,
      help: "A host is contended when it loses more than this share of its VMs' demand (from its VMs' samples when they cover it, else its own metric), and only hosts below it are destinations. Equal to the VM exit threshold: a destination must not put a moved VM back into suffering; 1-3 % is housekeeping noise",
    },
    max_same_role_per_host: {
      type: 'int',
      default: 2,
      min: 1,
      help: "A destination must hold fewer VMs of the moving VM's role than this (planned moves included), so losing one host takes at most this many replicas",
    },
    max_migrations_per_host: {
      type: 'int',
      default: 1,
      min: 1,
      help: "Concurrent migrations per source host and per destination host (Nova's max_concurrent_live_migrations default)",
    },
    max_concurrent_migrations: {
      type: 'int',
      default: 10,
      min: 1,
      help: 'Concurrent migrations in the whole fleet',
    },
    max_migrations_per_az: {
      type: 'int',
      default: 4,
      min: 1,
      help: "Concurrent migrations per availability zone: 4 x 2,500 Mbit/s keeps one zone's migration traffic within one 10 GbE link",
    },
    migration_bandwidth_mbps: {
      type: 'float',
      default: 2500,
      min: 1,
      help: "Rate limit per migration in Mbit/s: a quarter of a 10 GbE link. Nova's default is unlimited, which is how a 500 GB block migration saturated a network at noon",
    },
    link_bandwidth_mbps: {
      type: 'float',
      default: 10000,
      min: 1,
      help: "Bandwidth of one host's migration link in Mbit/s; concurrent migrations on a link share it",
    },
    dirty_rate_mbps: {
      type: 'float',
      default: 200,
      min: 0,
      help: 'Estimated rate at which a VM dirties memory during pre-copy (Mbit/s); pre-copy converges only when the migration rate is above it',
    },
    max_downtime_ms: {
      type: 'int',
      default: 500,
      min: 1,
      help: "Pre-copy stops when the remaining dirty memory can be sent within this pause (Nova's live_migration_downtime default)",
    },
    max_block_migration_gb: {
      type: 'float',
      default: 100,
      min: 0,
      help: 'Local disk (root + ephemeral + swap) above this is not block-migrated: refused, or left for approval in approve mode. 100 GB takes ~6 min at 2,500 Mbit/s; the 500 GB disk of the outage would take ~28 min',
    },
    cooldown_hours: {
      type: 'float',
      default: 2,
      min: 0,
      help: "Cooldown after a VM's move, doubled for each further move within max_cooldown_hours (2, 4, 8 h ...): longer than the gap between daily peaks, so one peak moves a VM at most once",
    },
    max_cooldown_hours: {
      type: 'float',
      default: 48,
      min: 0,
      help: 'Cap of the exponential cooldown, and how far back moves are counted; a VM that keeps needing moves is a capacity problem',
    },
    no_return_hours: {
      type: 'float',
      default: 24,
      min: 0,
      help: 'A VM never moves back to a host it left within this many hours (one daily cycle of peaks): no ping-pong',
    },
    blackout_windows: {
      type: 'list',
      default: [],
      help: 'Daily "HH:MM-HH:MM" windows (in timezone) in which no migration starts, e.g. 08:30-09:30,11:30-13:00; a window may wrap midnight (22:00-02:00)',
    },
    timezone: {
      type: 'string',
      default: 'UTC',
      help: 'IANA time zone of blackout_windows, e.g. Asia/Tokyo',
    },
    min_benefit_percent: {
      type: 'float',
      default: 5,
      min: 0,
      help: 'Only moves whose expected steal relief is at least this many percentage points; smaller gains are within measurement noise and not worth a migration',
    },
    noisy_neighbour_moves: {
      type: 'bool',
      default: false,
      help: 'Allow moving a noisy neighbour instead of the victims when that relieves more suffering VMs per byte (DRS-style cost/benefit); off: victims move, as operators expect',
    },
    mode: {
      type: 'string',
      default: 'recommend',
      help: 'recommend (dry run), approve (plans wait for `placid approve PLAN_ID`) or auto',
    },
    plan_ttl_minutes: {
      type: 'int',
      default: 30,
      min: 1,
      help: 'A plan expires after this: time for an on-call to review it, short enough that it still describes the same peak',
    },
  },
} as const satisfies Record<string, Record<string, OptionSpec>>;

/** The `[rebalance]` values as `resolveConfig` returns them (before parseRebalanceSettings). */
export type RebalanceOptionValues = ConfigOf<typeof REBALANCE_OPTIONS>['rebalance'];
