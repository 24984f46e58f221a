/**
 * The leases a migration holds, all owned by its migration id: the VM itself (one migration per VM),
 * one of `max_migrations_per_host` slots on each of its two hosts, and one of
 * `max_concurrent_migrations` slots of the fleet-wide budget. A slot is a plain lease, so taking
 * one is a single conditional write and an expired holder's slot is simply taken over.
 */
import type { MigrationInput } from '../model/migration.js';
import type { WorkflowSettings } from './settings.js';

const PREFIX = 'migration';

export const vmLease = (instanceUuid: string): string => `${PREFIX}/vm/${instanceUuid}`;

export function hostSlots(host: string, settings: WorkflowSettings): string[] {
  return slots(`${PREFIX}/host/${host}`, settings.max_migrations_per_host);
}

export function budgetSlots(settings: WorkflowSettings): string[] {
  return slots(`${PREFIX}/budget`, settings.max_concurrent_migrations);
}

/**
 * Every lease name a migration could hold: what rollback releases when it does not know which
 * slots were taken (acquire crashed part-way). Releasing a lease one does not hold is a no-op.
 */
export function candidateLeases(migration: MigrationInput, settings: WorkflowSettings): string[] {
  return [
    vmLease(migration.instance_uuid),
    ...hostSlots(migration.source_host, settings),
    ...hostSlots(migration.dest_host, settings),
    ...budgetSlots(settings),
  ];
}

function slots(base: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${base}/${i}`);
}
