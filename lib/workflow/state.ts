/**
 * The execution's state document as it flows through the state machine (JSONPath): the input under
 * `migration`, and each step's result under its own key (the task's ResultPath). Every step gets
 * the whole document, so a retried or rolled-back step sees what earlier steps did.
 */
import type { MigrationInput } from '../model/migration.js';

export interface LeaseGrant {
  /** Every lease holds this owner: the migration id. */
  owner: string;
  names: string[];
  acquired_at: string;
  expires_at: string;
}

/** The plan's checks made in AWS before the agent's re-check (checkPlan.ts). */
export interface PlanCheckResult {
  checked_at: string;
  /** How the placement engine judged the destination. */
  placement: string;
  steal_before_percent: number | null;
}

/** What the drain may touch, as the agent found it (targets.ts); null: nothing of that kind. */
export interface DrainTargets {
  kubernetes: { cluster: string | null; node: string } | null;
  consul: { node: string; address: string } | null;
}

export interface RecheckResult {
  checked_at: string;
  /** The only node and agent the drain, undrain and rollback act on. */
  targets: DrainTargets;
  /** What the node looked like before Placid touched it, so undrain restores exactly that. */
  pre: {
    /** Null when the VM is no Kubernetes node. */
    cordoned: boolean | null;
    /** Reason of a maintenance someone else had already enabled; null when off or no Consul. */
    maintenance_reason: string | null;
  };
  steal_before_percent: number | null;
}

export interface DrainResult {
  kubernetes: { node: string; evicted: number; skipped: number; warnings: string[] } | null;
  consul: { node: string; outcome: 'enabled' | 'already-enabled' } | null;
}

export interface LiveMigration {
  /** Nova's migration id; null until Nova has created the record (it does so asynchronously). */
  nova_migration_id: number | null;
  requested_at: string;
  /** True when an earlier attempt of this step had already started it (a retry after a partial effect). */
  adopted: boolean;
  deadline_at: string;
  /** For the state machine's Wait state. */
  poll_interval_seconds: number;
  forced_at: string | null;
}

export type PollPhase = 'running' | 'completed' | 'deadline';

export interface PollResult {
  phase: PollPhase;
  status: string;
  polls: number;
  progress_percent: number | null;
  /** Bytes Nova reports for the migration (memory + disk totals), when it does. */
  total_bytes: number | null;
  polled_at: string;
  /** When the leases expire, as last renewed (RenewLeases) or granted. */
  leases_until: string | null;
  /** Half the lease time is used up: the state machine renews them (in AWS) before the next wait. */
  renew_due: boolean;
}

export interface LeaseRenewal {
  leases_until: string;
  renewed_at: string;
}

/** What the on-premises half of a rollback or deferral found and restored (steps/rollback.ts). */
export interface CleanupResult {
  /** Where the VM is now, as far as the agent could tell. */
  final_host: string | null;
  nova_migration_id: number | null;
  /** Nova finished the migration despite the abort (refused in post-migrating): the VM moved. */
  landed?: boolean;
}

export interface VerifyResult {
  host: string;
  status: string;
  verified_at: string;
}

export interface UndrainResult {
  kubernetes: 'uncordoned' | 'already-schedulable' | 'left-cordoned' | 'untouched' | null;
  consul: 'disabled' | 'already-disabled' | 'left-enabled' | null;
}

/** What a Catch puts at `$.failure` (Cause is the error message locally, a JSON document on Lambda). */
export interface CaughtFailure {
  Error: string;
  Cause?: string;
}

export interface WorkflowState {
  migration: MigrationInput;
  /** `$$.Execution.StartTime`: the migration record's sort key, stable across retries. */
  execution_started_at: string;
  leases?: LeaseGrant;
  plan_check?: PlanCheckResult;
  recheck?: RecheckResult;
  drain?: DrainResult;
  live?: LiveMigration;
  poll?: PollResult;
  renewal?: LeaseRenewal;
  verify?: VerifyResult;
  undrain?: UndrainResult;
  failure?: CaughtFailure;
  cleanup?: CleanupResult;
  /** Set when the on-premises cleanup gave up (its retries or its agents ran out). */
  cleanup_failure?: CaughtFailure;
}
