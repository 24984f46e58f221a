/**
 * The marks the workflow leaves on other systems, built in one place so they can be recognised
 * again: by undrain (only this migration's mark is undone) and by the agent's cleanup, which
 * undoes whatever Placid left drained longer than a bound, with nothing but the mark to go on.
 */
import { DRAINED_AT_ANNOTATION, DRAINED_BY_ANNOTATION } from '../drivers/kubernetes/types.js';
import type { MigrationInput } from '../model/migration.js';

/**
 * The Consul maintenance reason. Consul keeps the first reason given, so finding one that names
 * this migration proves Placid (this migration) enabled maintenance and may disable it.
 */
export function maintenanceReason(migration: MigrationInput, at: Date): string {
  return (
    `placid migration ${migration.migration_id} since ${at.toISOString()}: live-migrating ` +
    `${migration.instance_uuid} from ${migration.source_host} to ${migration.dest_host}`
  );
}

export interface PlacidMark {
  migrationId: string;
  /** When the node was drained; null when the mark does not say. */
  since: Date | null;
}

/** The migration a maintenance reason names, or null when Placid did not write it. */
export function reasonMark(reason: string | null | undefined): PlacidMark | null {
  const match = /^placid migration (\S+?)(?: since (\S+))?: /.exec(reason ?? '');
  if (!match) return null;
  const since = match[2] ? new Date(match[2]) : null;
  return { migrationId: match[1], since: since && !Number.isNaN(since.getTime()) ? since : null };
}

/** The mark in a node's annotations, or null when Placid did not drain it. */
export function annotationMark(annotations: Record<string, string> | undefined): PlacidMark | null {
  const migrationId = annotations?.[DRAINED_BY_ANNOTATION];
  if (!migrationId) return null;
  const since = new Date(annotations?.[DRAINED_AT_ANNOTATION] ?? '');
  return { migrationId, since: Number.isNaN(since.getTime()) ? null : since };
}
