/**
 * What the step cores need from the outside, as small interfaces: the real drivers (NovaClient,
 * KubernetesNodeDrainer, ConsulMaintenanceSwitch), the simulated ones and test doubles all fit.
 * Drivers are reached through async getters so a step connects only to the systems it uses.
 */
import type { MaintenanceSwitch } from '../drivers/consul/types.js';
import type { NodeDrainer } from '../drivers/kubernetes/types.js';
import type { NovaClient } from '../drivers/openstack/nova.js';
import type { Clock } from '../model/clock.js';
import type { MigrationInput, MigrationOutcomeStatus } from '../model/migration.js';
import type { WorkflowSettings } from './settings.js';
import type { TrustPolicy } from './trust.js';

/** The Nova calls a live migration makes (NovaClient has exactly these). */
export type ComputeApi = Pick<
  NovaClient,
  | 'getServer'
  | 'liveMigrate'
  | 'listServerMigrations'
  | 'listMigrations'
  | 'forceCompleteMigration'
  | 'abortMigration'
>;

export interface LeaseStore {
  /** Undefined when someone else holds it; renews when `owner` already does. */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<{ name: string } | undefined>;
  /** False when `owner` no longer holds it (released or expired): fine for an idempotent release. */
  releaseLease(name: string, owner: string): Promise<boolean>;
}

/** A migration's record, as the workflow writes it (one item per execution). */
export interface MigrationOutcome {
  migration: MigrationInput;
  started_at: string;
  finished_at: string;
  status: MigrationOutcomeStatus;
  /** The whole execution, drain and undrain included. */
  duration_seconds: number;
  /** From os-migrateLive to the server verified on the destination; null when it never got there. */
  migration_seconds: number | null;
  /** What Nova reported moving (memory + disk), else the cost model's estimate. */
  bytes: number;
  steal_before_percent: number | null;
  /** Where the VM ended up, as far as the workflow knows. */
  final_host: string | null;
  nova_migration_id: number | null;
  /** Error class and message on failure or deferral. */
  error: string | null;
  cause: string | null;
  /** Cleanup that did not succeed (a node left cordoned…); empty when everything was restored. */
  cleanup_problems: string[];
}

export interface MigrationRecorder {
  /** Idempotent: the same migration's record is overwritten, never duplicated. */
  record(outcome: MigrationOutcome): Promise<void>;
  /** The VM's last move, for its cooldown; with `host`, the VM is now there. */
  markMigrated(instanceUuid: string, at: string, host?: string): Promise<void>;
  /** The migration's record goes to `running` (lib/model/migration.ts); optional for test doubles. */
  markRunning?(migration: MigrationInput, executionStartedAt: string): Promise<void>;
}

export interface PlacementVerdict {
  passes: boolean;
  /** Why not (an operator-readable sentence), or a note on how it was checked. */
  reason: string;
}

/** Does the destination still pass the placement engine for this VM, with fresh state? */
export interface PlacementChecker {
  check(migration: MigrationInput): Promise<PlacementVerdict>;
}

/** Mean steal of the VM on `host` (default: its stored node) over the window, or null without samples. */
export type StealReader = (
  instanceUuid: string,
  from: Date,
  to: Date,
  host?: string,
) => Promise<number | null>;

/**
 * What a step needs, split by where it runs: the steps in AWS reach the store (leases, records,
 * placement, steal) and nothing on-premises; the steps on an agent reach Nova, Kubernetes and
 * Consul and never the store (the agent has no table access).
 */
export type CloudStepDeps = Pick<
  StepDeps,
  'settings' | 'clock' | 'leases' | 'records' | 'placement' | 'steal'
>;
export type AgentStepDeps = Pick<
  StepDeps,
  'settings' | 'clock' | 'nova' | 'drainer' | 'maintenance' | 'signal' | 'trust'
>;

export interface StepDeps {
  settings: WorkflowSettings;
  clock: Clock;
  leases: LeaseStore;
  records: MigrationRecorder;
  placement: PlacementChecker;
  steal?: StealReader;
  nova(): Promise<ComputeApi>;
  /** The drainer of `cluster` (a report's `kubernetes_cluster`; null or absent: the default one). */
  drainer(cluster?: string | null): Promise<NodeDrainer>;
  maintenance(): Promise<MaintenanceSwitch>;
  /** Aborted when the step's task is no longer this agent's (lib/workflow/fence.ts). */
  signal?: AbortSignal;
  /** What the agent believes about a VM's node and agent (trust.ts); default DEFAULT_TRUST. */
  trust?: TrustPolicy;
}
