/**
 * Past moves of the VMs a plan may move, for cooldown and no-return (ping-pong): read from the
 * migrations table, only for the VMs on hosts with suffering VMs (the only ones the planner
 * considers), only as far back as the longer of the two rules looks, and only for the VMs whose
 * `last_migrated_at` falls in that span: a VM that has not moved since cannot have a move to
 * count. That holds because every succeeded move raises its VM's `last_migrated_at` to at least
 * the move's end (the workflow's markMigrated right after writing the record, and the agents'
 * reports; the store never lowers it), and the move's end is after its record's `started_at`.
 * Most candidates never moved, so this skips most of the per-VM queries of a detection.
 */

import type { InstanceReport } from '../model/reports.js';
import type { RebalanceSettings } from '../rebalance/settings.js';
import type { DetectionReport, MigrationRecord } from '../rebalance/types.js';
import { mapLimit } from '../store/concurrency.js';
import type { MigrationRecordRepository } from '../store/migrationRecords.js';

const HOUR_MS = 3_600_000;

export type CandidateVm = Pick<InstanceReport, 'uuid' | 'last_migrated_at'>;

/** VMs on hosts with at least one suffering VM: the planner's candidates (victims and neighbours). */
export function candidateVms(
  detection: DetectionReport,
  instances: readonly InstanceReport[],
): CandidateVm[] {
  const relieved = new Set(detection.hosts.filter((h) => h.victims.length > 0).map((h) => h.host));
  return instances
    .filter((vm) => relieved.has(vm.host))
    .map((vm) => ({ uuid: vm.uuid, last_migrated_at: vm.last_migrated_at ?? null }));
}

/** The VMs among `vms` that moved at `since` or later (their history may hold a move to count). */
export function movedSince(vms: readonly CandidateVm[], since: Date): string[] {
  const from = since.getTime();
  return vms
    .filter((vm) => vm.last_migrated_at != null && Date.parse(vm.last_migrated_at) >= from)
    .map((vm) => vm.uuid);
}

export async function moveHistory(
  migrations: Pick<MigrationRecordRepository, 'forInstance'>,
  vms: readonly CandidateVm[],
  now: Date,
  settings: Pick<RebalanceSettings, 'max_cooldown_hours' | 'no_return_hours'>,
  concurrency: number,
): Promise<MigrationRecord[]> {
  const hours = Math.max(settings.max_cooldown_hours, settings.no_return_hours);
  const since = new Date(now.getTime() - hours * HOUR_MS);
  const perVm = await mapLimit(movedSince(vms, since), concurrency, (uuid) =>
    migrations.forInstance(uuid, since),
  );
  return perVm.flat().flatMap((r) =>
    r.status === 'succeeded' && r.finished_at
      ? [
          {
            instance_uuid: r.instance_uuid,
            source_host: r.source_host,
            dest_host: r.final_host ?? r.dest_host,
            at: r.finished_at,
          },
        ]
      : [],
  );
}
