/**
 * The plan queue message: one planned migration. The planner sends it, the plan starter validates
 * it and starts one execution per message, and it is the state machine's execution input.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ValidationError } from '../model/errors.js';
import { parseWith } from '../model/schema.js';
import { InvalidMigrationInputError } from './errors.js';

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

export type MigrationInput = z.output<typeof migrationInputSchema>;

/** Validates a plan message; a ValidationError names each bad field. */
export function parseMigrationInput(input: unknown, source = 'migration'): MigrationInput {
  return parseWith(migrationInputSchema, input, source);
}

/** The same, as the workflow's own (permanent) error, so the state machine fails fast on it. */
export function requireMigrationInput(input: unknown): MigrationInput {
  try {
    return parseMigrationInput(input);
  } catch (error) {
    if (error instanceof ValidationError) throw new InvalidMigrationInputError(error.message);
    throw error;
  }
}

const EXECUTION_NAME_MAX = 80;

/**
 * The execution name for a migration: the id itself when Step Functions allows it (80 characters
 * of letters, digits, `-` and `_`), else a readable prefix plus a hash of the whole id, so two ids
 * never share a name and the same id always gets the same one (that is what makes starts idempotent).
 */
export function executionNameFor(migrationId: string): string {
  if (migrationId.length <= EXECUTION_NAME_MAX && /^[A-Za-z0-9_-]+$/.test(migrationId)) return migrationId;
  const hash = createHash('sha256').update(migrationId).digest('hex').slice(0, 16);
  const prefix = migrationId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, EXECUTION_NAME_MAX - hash.length - 1);
  return `${prefix}-${hash}`;
}
