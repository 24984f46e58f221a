/** Texts the workflow leaves on other systems, built in one place so they can be recognised again. */
import type { MigrationInput } from '../model/migration.js';

/**
 * The Consul maintenance reason. Consul keeps the first reason given, so finding exactly this one
 * later proves Placid (this migration) enabled maintenance and may disable it.
 */
export function maintenanceReason(migration: MigrationInput): string {
  return (
    `placid migration ${migration.migration_id}: live-migrating ${migration.instance_uuid} ` +
    `from ${migration.source_host} to ${migration.dest_host}`
  );
}
