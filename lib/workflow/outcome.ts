/** Builds a migration's record from the execution state: shared by the success and rollback paths. */

import type { MigrationOutcomeStatus } from '../model/migration.js';
import type { MigrationOutcome } from './ports.js';
import type { CaughtFailure, WorkflowState } from './state.js';

export interface OutcomeDetails {
  status: MigrationOutcomeStatus;
  finalHost: string | null;
  novaMigrationId?: number | null;
  cleanupProblems?: string[];
}

export function buildOutcome(state: WorkflowState, now: Date, details: OutcomeDetails): MigrationOutcome {
  const started = Date.parse(state.execution_started_at);
  const migrated =
    state.live && state.verify
      ? Date.parse(state.verify.verified_at) - Date.parse(state.live.requested_at)
      : null;
  return {
    migration: state.migration,
    started_at: state.execution_started_at,
    finished_at: now.toISOString(),
    status: details.status,
    duration_seconds: seconds(now.getTime() - started),
    migration_seconds: migrated === null ? null : seconds(migrated),
    bytes: state.poll?.total_bytes ?? state.migration.estimated_bytes,
    steal_before_percent: state.recheck?.steal_before_percent ?? null,
    final_host: details.finalHost,
    nova_migration_id: details.novaMigrationId ?? state.live?.nova_migration_id ?? null,
    error: state.failure?.Error ?? null,
    cause: state.failure ? causeText(state.failure) : null,
    cleanup_problems: details.cleanupProblems ?? [],
  };
}

/**
 * The failure's message. On Lambda, Cause is a JSON document `{errorType, errorMessage, trace}`;
 * the local runner (and States.* errors) give the message itself.
 */
export function causeText(failure: CaughtFailure): string {
  const cause = failure.Cause ?? '';
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: unknown };
    if (typeof parsed?.errorMessage === 'string') return parsed.errorMessage;
  } catch {
    // not JSON: the message itself
  }
  return cause;
}

const seconds = (ms: number): number => Math.max(0, Math.round(ms / 100) / 10);
