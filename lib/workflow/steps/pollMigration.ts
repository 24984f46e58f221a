/**
 * One poll of the running migration; the loop itself is the state machine's Wait/Choice, so no
 * Lambda sleeps. Returns `completed`, `running` (with progress) or `deadline` once Placid's own
 * deadline has passed; a migration Nova ended in error, or cancelled, fails the step for good.
 * It runs on an agent and cannot write the store: it says when the leases are due for renewal
 * (`renew_due`) and the state machine renews them in AWS (renewLeases.ts) before the next wait.
 */
import type { ServerMigration } from '../../drivers/openstack/schemas.js';
import { LiveMigrationFailedError } from '../errors.js';
import { FAILED, FINISHED, findOurMigration } from '../novaMigration.js';
import type { AgentStepDeps } from '../ports.js';
import { leaseTtlMs } from '../settings.js';
import type { LiveMigration, PollResult, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function pollMigration(state: WorkflowState, deps: AgentStepDeps): Promise<PollResult> {
  const { migration } = state;
  const live = requireLive(state);
  const nova = await deps.nova();
  const now = new Date(deps.clock.now());
  const polls = (state.poll?.polls ?? 0) + 1;
  const leases = leaseTimes(state, deps, now);
  // Progress first: a migration that finishes between the two reads still leaves its byte counts.
  const running = await guarded('read migration progress', () =>
    nova.listServerMigrations(migration.instance_uuid),
  );
  const record = await findOurMigration(nova, state);
  const progress = (record && running.find((m) => m.id === record.id)) ?? null;
  const result = (phase: PollResult['phase'], status: string, progress: ServerMigration | null) => ({
    phase,
    status,
    polls,
    progress_percent: progress ? progressPercent(progress) : null,
    // The finished record carries no byte counters: keep the last ones seen.
    total_bytes: (progress && totalBytes(progress)) ?? state.poll?.total_bytes ?? null,
    polled_at: now.toISOString(),
    leases_until: leases.until,
    renew_due: leases.due,
  });

  if (record && FAILED.has(record.status)) {
    throw new LiveMigrationFailedError(
      `Nova migration ${record.id} of ${migration.instance_uuid} to ${migration.dest_host} ended ${record.status}`,
    );
  }
  if (record && FINISHED.has(record.status)) {
    return result('completed', record.status, progress);
  }
  const overdue = now.getTime() >= Date.parse(live.deadline_at);
  return result(overdue ? 'deadline' : 'running', record?.status ?? 'not-yet-listed', progress);
}

/**
 * Retries and slow APIs can stretch an execution past the lease expiry set at acquire time; while
 * the migration runs, the leases are renewed once half of their time is used up.
 */
function leaseTimes(
  state: WorkflowState,
  deps: AgentStepDeps,
  now: Date,
): { until: string | null; due: boolean } {
  const grant = state.leases;
  if (!grant) return { until: null, due: false };
  const until = Math.max(
    ...[grant.expires_at, state.poll?.leases_until, state.renewal?.leases_until]
      .filter((t): t is string => typeof t === 'string')
      .map(Date.parse),
  );
  const ttlMs = leaseTtlMs(state.migration.estimated_seconds, deps.settings);
  return { until: new Date(until).toISOString(), due: until - now.getTime() <= ttlMs / 2 };
}

export function requireLive(state: WorkflowState): LiveMigration {
  if (!state.live) throw new TypeError('the state has no live migration (the LiveMigrate step did not run)');
  return state.live;
}

function totalBytes(m: ServerMigration): number | null {
  if (m.memoryTotalBytes === null && m.diskTotalBytes === null) return null;
  return (m.memoryTotalBytes ?? 0) + (m.diskTotalBytes ?? 0);
}

function progressPercent(m: ServerMigration): number | null {
  const total = totalBytes(m);
  if (!total) return null;
  const done = (m.memoryProcessedBytes ?? 0) + (m.diskProcessedBytes ?? 0);
  return Math.min(100, Math.round((done / total) * 1000) / 10);
}
