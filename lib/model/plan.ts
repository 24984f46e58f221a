/**
 * The plan the planner returns: what `placid plan --json` prints, the detector stores and the CLI
 * shows; and the plan as the plans table holds it. A contract between rebalance, detector and store.
 */

/** recommend: a dry run; approve: waits for `placid approve PLAN_ID`; auto: approved as made. */
export const REBALANCE_MODES = ['recommend', 'approve', 'auto'] as const;
export type RebalanceMode = (typeof REBALANCE_MODES)[number];

/** Why a considered VM is not moved; the human output groups skipped VMs by it. */
export type SkipCode =
  | 'recovers_without_moving'
  | 'no_destination'
  | 'cooldown'
  | 'budget'
  | 'blackout'
  | 'too_little_benefit'
  | 'block_migration_too_large'
  | 'not_converging'
  | 'no_data';

export interface Skip {
  code: SkipCode;
  reason: string;
}

/** Predicted steal (percent) of the moved VM and of both hosts, before and after the move. */
export interface ExpectedGain {
  steal_before: number;
  steal_after: number;
  source_steal_before: number;
  source_steal_after: number;
  dest_steal_before: number;
  dest_steal_after: number;
}

export interface PlannedMigration {
  instance_uuid: string;
  source_host: string;
  dest_host: string;
  /** 1-based; all migrations of a wave start together, after the previous wave ends. */
  wave: number;
  starts_at: string;
  reason: string;
  /** RAM + local disk when not on shared storage. */
  estimated_bytes: number;
  estimated_seconds: number;
  expected_gain: ExpectedGain;
  /** `victim`: a suffering VM moves; `noisy_neighbour`: a busy VM moves so the victims recover in place. */
  kind: 'victim' | 'noisy_neighbour';
  availability_zone: string;
  block_migration: boolean;
  /** A block migration above max_block_migration_gb in approve mode: the operator must approve it. */
  needs_approval: boolean;
}

export interface SkippedVm extends Skip {
  instance_uuid: string;
  host: string;
}

export interface PlanWave {
  wave: number;
  starts_at: string;
  ends_at: string;
  migrations: number;
}

export interface PlanSummary {
  suffering_vms: number;
  contended_hosts: number;
  moved: number;
  bytes: number;
  /**
   * The fewest bytes that could relieve the suffering VMs of `lower_bound_covers`, ignoring
   * destinations and limits (lowerBound.ts): never above the plan's bytes from those hosts.
   */
  lower_bound_bytes: number;
  /**
   * Which suffering VMs the bound covers: those on the hosts whose every suffering VM the plan is
   * predicted to relieve (suffering VMs no move could relieve, such as a VM in cooldown that only its
   * own move helps, left aside), and what the plan moves from those hosts.
   */
  lower_bound_covers: { hosts: string[]; suffering_vms: number; plan_bytes: number };
  waves: number;
  /** Suffering VMs the proportional-share model predicts after the plan (outcome.ts). */
  suffering_left_predicted: number;
  /** VMs not suffering now that the model predicts will suffer after the plan. */
  newly_suffering_predicted: number;
}

export type PlanStatus = 'recommended' | 'pending_approval' | 'approved';

export interface Plan {
  plan_id: string;
  mode: RebalanceMode;
  /** recommend: a dry run; approve: waits for `placid approve PLAN_ID`; auto: approved as made. */
  status: PlanStatus;
  created_at: string;
  expires_at: string;
  migrations: PlannedMigration[];
  skipped: SkippedVm[];
  waves: PlanWave[];
  summary: PlanSummary;
}

/**
 * A plan's life in the plans table: `recommended` (a dry run, never sent), `pending_approval`
 * (waits for `placid approve`), `approved` (its migrations are being sent wave by wave),
 * `completed` (every migration ended) or `expired` (its time ran out first).
 */
export type StoredPlanStatus = Plan['status'] | 'completed' | 'expired';

/** What the plans table holds for a plan: the plan itself plus its lifecycle. */
export interface StoredPlan {
  plan_id: string;
  status: StoredPlanStatus;
  mode: Plan['mode'];
  created_at: string;
  /** When the plan stops being executable (ISO-8601); `expires_at` on the item is the TTL. */
  plan_expires_at: string;
  approved_at?: string;
  completed_at?: string;
  expired_at?: string;
  summary: PlanSummary;
  waves: PlanWave[];
  /** The whole plan as the planner returned it (skipped VMs may be cut to fit an item). */
  plan: Plan;
}
