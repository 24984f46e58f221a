/**
 * One migration is one item of the `migrations` table, written by two parties:
 *
 *   planned ──▶ queued ──▶ running ──▶ succeeded | failed | deferred
 *      │ (detector)  (workflow, first step)  (workflow, last step)
 *      └──▶ skipped (the plan expired before it was sent)
 *
 * The detector creates it (`planned`, keyed by the plan's creation time, which it also sends as
 * `planned_at`) and moves it to `queued` with a conditional update just before sending the plan
 * message; the workflow updates the same item, found by `recordKey`. An ad-hoc migration (`placid
 * migrate`) has no planned item: the workflow creates one keyed by the execution start.
 * A failed migration is rolled back by the workflow (lib/workflow/steps/rollback.ts): `failed`
 * means "did not happen, node back in service"; `cleanup_problems` lists anything left over.
 */
import type { MigrationInput } from './input.js';
import type { MigrationStatus } from './state.js';

export type MigrationRecordStatus = 'planned' | 'queued' | 'running' | 'skipped' | MigrationStatus;

/** Statuses after which nothing changes the item any more. */
export const TERMINAL_RECORD_STATUSES: ReadonlySet<MigrationRecordStatus> = new Set([
  'succeeded',
  'failed',
  'deferred',
  'skipped',
]);

export interface MigrationRecordKey {
  instance_uuid: string;
  /** The plan's creation time for a planned migration, else the execution start. */
  started_at: string;
}

/** The item's key: where the detector wrote it, or the execution start for an ad-hoc migration. */
export function recordKey(
  migration: Pick<MigrationInput, 'instance_uuid' | 'planned_at'>,
  executionStartedAt: string,
): MigrationRecordKey {
  return { instance_uuid: migration.instance_uuid, started_at: migration.planned_at ?? executionStartedAt };
}

/** The item as stored; which fields are set depends on how far the migration got. */
export type MigrationRecordItem = MigrationRecordKey &
  Omit<MigrationInput, 'instance_uuid'> & {
    status: MigrationRecordStatus;
    /** DynamoDB TTL (epoch seconds). */
    expires_at: number;
    // Written by the detector.
    wave?: number;
    /** The wave's planned start (ISO-8601). */
    starts_at?: string;
    reason?: string;
    needs_approval?: boolean;
    queued_at?: string;
    skipped_at?: string;
    skip_reason?: string;
    // Written by the workflow.
    execution_started_at?: string;
    finished_at?: string;
    duration_seconds?: number;
    migration_seconds?: number | null;
    bytes?: number;
    steal_before_percent?: number | null;
    final_host?: string | null;
    nova_migration_id?: number | null;
    error?: string | null;
    cause?: string | null;
    cleanup_problems?: string[];
  };

/** `SET #a = :a, …` for every defined value of `values` (DynamoDB rejects undefined). */
export function setExpression(values: Record<string, unknown>): {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const vals: Record<string, unknown> = {};
  const sets: string[] = [];
  Object.entries(values).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    vals[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: vals,
  };
}
