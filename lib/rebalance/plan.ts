/**
 * Assembles the plan: a deterministic id, its expiry, the migrations in the order they were
 * planned (each with its wave), the skipped VMs, the waves and a summary with the model's verdict.
 *
 * The id is a hash of what the plan decides (created_at, mode, each migration's VM, hosts and
 * wave, each skip's VM and code), not a random uuid: the detector runs every minute, and the same
 * fleet at the same time must give the same plan id, so storing and queueing it is idempotent.
 */
import { createHash } from 'node:crypto';
import type { Plan, PlannedMigration, PlanStatus, PlanWave, SkippedVm } from '../model/plan.js';
import type { RebalanceMode } from './options.js';
import type { Outcome } from './outcome.js';
import type { RebalanceSettings } from './settings.js';
import type { DetectionReport } from './types.js';

export interface PlanParts {
  now: Date;
  settings: RebalanceSettings;
  detection: DetectionReport;
  migrations: PlannedMigration[];
  skipped: SkippedVm[];
  waves: PlanWave[];
  lowerBound: PlanLowerBound;
  /** The model's prediction for these migrations (outcome.ts). */
  outcome: Outcome;
}

/** The lower bound and the suffering VMs it covers (planner.ts coveredBound). */
export interface PlanLowerBound {
  bytes: number;
  hosts: string[];
  sufferingVms: number;
  /** What the plan moves from those hosts. */
  planBytes: number;
}

const STATUS: Record<RebalanceMode, PlanStatus> = {
  recommend: 'recommended',
  approve: 'pending_approval',
  auto: 'approved',
};

export function buildPlan(parts: PlanParts): Plan {
  const { settings, migrations, skipped, detection } = parts;
  const createdAt = parts.now.toISOString();
  const { outcome } = parts;
  return {
    plan_id: planId(createdAt, settings.mode, migrations, skipped),
    mode: settings.mode,
    status: STATUS[settings.mode],
    created_at: createdAt,
    expires_at: new Date(parts.now.getTime() + settings.plan_ttl_minutes * 60_000).toISOString(),
    migrations,
    skipped,
    waves: parts.waves,
    summary: {
      suffering_vms: detection.suffering.length,
      contended_hosts: detection.hosts.filter((h) => h.status === 'contended').length,
      moved: migrations.length,
      bytes: migrations.reduce((n, m) => n + m.estimated_bytes, 0),
      lower_bound_bytes: parts.lowerBound.bytes,
      lower_bound_covers: {
        hosts: parts.lowerBound.hosts,
        suffering_vms: parts.lowerBound.sufferingVms,
        plan_bytes: parts.lowerBound.planBytes,
      },
      waves: parts.waves.length,
      suffering_left_predicted: outcome.sufferingLeft.length,
      newly_suffering_predicted: outcome.newlySuffering.length,
    },
  };
}

/** `plan-` and 20 hex digits of a SHA-256 over the plan's decisions. */
export function planId(
  createdAt: string,
  mode: RebalanceMode,
  migrations: readonly PlannedMigration[],
  skipped: readonly SkippedVm[],
): string {
  const decisions = {
    createdAt,
    mode,
    migrations: migrations.map((m) => [m.instance_uuid, m.source_host, m.dest_host, m.wave]),
    skipped: skipped.map((s) => [s.instance_uuid, s.code]),
  };
  return `plan-${createHash('sha256').update(JSON.stringify(decisions)).digest('hex').slice(0, 20)}`;
}
