/**
 * The workflow's side of the plan-queue message (lib/model/migration.ts): its validation as the
 * workflow's own error, and the execution name derived from it.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../model/errors.js';
import { type MigrationInput, parseMigrationInput } from '../model/migration.js';
import { InvalidMigrationInputError } from './errors.js';

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
