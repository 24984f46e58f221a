/**
 * The contracts between the detector and the migration workflow: the plan-queue message (one
 * planned migration: the plan starter validates it and starts one execution per message, and it is
 * the state machine's execution input) and the migration record both of them write.
 *
 * One migration is one item of the `migrations` table:
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
import * as z from 'zod';
import { parseWith } from './schema.js';

const isoTime = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO-8601 time');
const name = z.string().trim().min(1).max(255);

export const migrationInputSchema = z
  .object({
    /** Unique per planned move; the execution name and every lease owner derive from it. */
    migration_id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/, 'must be letters, digits, ".", "_", ":" or "-"'),
    plan_id: name,
    plan_expires_at: isoTime,
    instance_uuid: name,
    source_host: name,
    dest_host: name,
    /** RAM plus local disk (the cost model's bytes). */
    estimated_bytes: z.number().finite().nonnegative(),
    /** The cost model's duration; Placid's own deadline is a multiple of it. */
    estimated_seconds: z.number().finite().positive(),
    /** The VM's Kubernetes node, when it is one; null or absent: nothing to drain. */
    kubernetes_node: name.nullish(),
    /** The cluster of that node (the report's `kubernetes_cluster`); null or absent: the default one. */
    kubernetes_cluster: name.nullish(),
    /** The VM's Consul agent, when it runs one; null or absent: no maintenance mode. */
    consul: z.object({ node: name, address: name }).nullish(),
    correlation_id: name,
    /**
     * The plan's creation time, set by the detector: the sort key (`started_at`) of the migration's
     * record, which the detector writes as `planned` and the workflow updates to its outcome, so one
     * migration is one item. Absent for ad-hoc migrations: their record is keyed by the execution start.
     */
    planned_at: isoTime.optional(),
  })
  .refine((m) => m.source_host !== m.dest_host, {
    path: ['dest_host'],
    message: 'must differ from source_host',
  });

/** The plan-queue message: one planned migration, and the workflow's execution input. */
export type MigrationInput = z.output<typeof migrationInputSchema>;

/** Validates a plan message; a ValidationError names each bad field. */
export function parseMigrationInput(input: unknown, source = 'migration'): MigrationInput {
  return parseWith(migrationInputSchema, input, source);
}

/** How an execution ended (its record's final status). */
export type MigrationOutcomeStatus = 'succeeded' | 'failed' | 'deferred';

export type MigrationRecordStatus = 'planned' | 'queued' | 'running' | 'skipped' | MigrationOutcomeStatus;

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
