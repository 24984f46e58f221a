/**
 * The detector's side of the migration records (lib/model/migration.ts): one `planned` item per
 * planned migration, then `queued` by a conditional update just before its message is sent, or
 * `skipped` when the plan expires first (the writes: lib/store/migrationRecords.ts).
 */
import { createHash } from 'node:crypto';
import type { MigrationInput, MigrationRecordItem } from '../model/migration.js';
import type { Plan, PlannedMigration } from '../model/plan.js';
import { epochSeconds } from '../store/context.js';
import type { StoredInstance } from '../store/instances.js';
import { PLAN_RETENTION_DAYS } from '../store/plans.js';

const MIGRATION_ID_MAX = 128;

/**
 * The migration's id: the same for the same plan and VM, so a re-sent message starts no second
 * execution (the plan starter names executions after it). Readable when the uuid allows it.
 */
export function migrationIdFor(planId: string, instanceUuid: string): string {
  const id = `${planId}-${instanceUuid}`;
  if (id.length <= MIGRATION_ID_MAX && /^[A-Za-z0-9._:-]+$/.test(id)) return id;
  return `${planId}-${createHash('sha256').update(instanceUuid).digest('hex').slice(0, 32)}`;
}

/** The planned item of one migration; Kubernetes node and Consul agent come from the VM's report. */
export function plannedRecord(
  plan: Plan,
  m: PlannedMigration,
  instance: StoredInstance | undefined,
): MigrationRecordItem {
  const vm = instance as
    | {
        kubernetes_node?: string | null;
        kubernetes_cluster?: string | null;
        consul?: MigrationInput['consul'];
      }
    | undefined;
  return {
    instance_uuid: m.instance_uuid,
    started_at: plan.created_at,
    planned_at: plan.created_at,
    migration_id: migrationIdFor(plan.plan_id, m.instance_uuid),
    plan_id: plan.plan_id,
    plan_expires_at: plan.expires_at,
    source_host: m.source_host,
    dest_host: m.dest_host,
    estimated_bytes: m.estimated_bytes,
    // The workflow requires a positive duration; a zero-byte estimate still takes a moment.
    estimated_seconds: Math.max(1, m.estimated_seconds),
    kubernetes_node: vm?.kubernetes_node ?? null,
    kubernetes_cluster: vm?.kubernetes_cluster ?? null,
    consul: vm?.consul ?? null,
    correlation_id: plan.plan_id,
    status: 'planned',
    expires_at: epochSeconds(Date.parse(plan.expires_at)) + PLAN_RETENTION_DAYS * 86_400,
    wave: m.wave,
    starts_at: m.starts_at,
    reason: m.reason,
    needs_approval: m.needs_approval,
  };
}

/** The plan-queue message of a record. */
export function messageOf(r: MigrationRecordItem): MigrationInput {
  return {
    migration_id: r.migration_id,
    plan_id: r.plan_id,
    plan_expires_at: r.plan_expires_at,
    instance_uuid: r.instance_uuid,
    source_host: r.source_host,
    dest_host: r.dest_host,
    estimated_bytes: r.estimated_bytes,
    estimated_seconds: r.estimated_seconds,
    kubernetes_node: r.kubernetes_node ?? null,
    kubernetes_cluster: r.kubernetes_cluster ?? null,
    consul: r.consul ?? null,
    correlation_id: r.correlation_id,
    planned_at: r.planned_at ?? r.started_at,
  };
}
