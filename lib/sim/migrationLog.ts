/**
 * The run's decisions and migrations as the report shows them. Decisions come from every plan the
 * detector made, and every plan it computed but dropped because nothing could move: each planned
 * move (`moved`, with the planner's reason) and each skipped VM (its skip code and reason); a VM
 * given the same decision by consecutive plans is logged once, at the first. Migrations come from
 * the executions: what the workflow recorded as their outcome.
 *
 * Status of a migration: `succeeded` (verified on the destination); `rolled_back` (Placid had
 * drained the VM or started the live migration, then undid it: the VM stays on its source, its node
 * back in service); `failed` (ended before changing anything: deferred for a busy slot, an expired
 * plan, a blackout or a destination that no longer fits, or failed before the drain).
 */
import type { Plan } from '../model/plan.js';
import type { MigrationOutcome } from '../workflow/ports.js';
import type { ExecutionRecord } from './executions.js';
import type { Layout } from './layout.js';
import type { DecisionEntry, DecisionLog, MigrationEvent, MigrationStatus } from './result.js';

export class MigrationLog {
  readonly entries: DecisionEntry[] = [];
  plans = 0;
  private readonly planned = new Map<string, { wave: number; reason: string }>();
  private previous = new Map<string, string>();

  /** Records a plan the detector made. */
  onPlan(plan: Plan): void {
    this.plans++;
    this.decided(plan);
  }

  /** Records why nothing moved: the skips of a plan the detector computed but did not store. */
  onSkips(considered: Plan): void {
    this.decided(considered);
  }

  private decided(plan: Plan): void {
    const at = plan.created_at;
    const current = new Map<string, string>();
    const log = (uuid: string, decision: string, reason: string) => {
      current.set(uuid, decision);
      if (decision !== 'moved' && this.previous.get(uuid) === decision) return;
      this.entries.push({ at, plan_id: plan.plan_id, instance_uuid: uuid, decision, reason });
    };
    for (const m of plan.migrations) {
      this.planned.set(`${plan.plan_id}/${m.instance_uuid}`, { wave: m.wave, reason: m.reason });
      log(m.instance_uuid, 'moved', `${m.source_host} → ${m.dest_host} (wave ${m.wave}): ${m.reason}`);
    }
    for (const s of plan.skipped) log(s.instance_uuid, s.code, s.reason);
    this.previous = current;
  }

  decisionLog(): DecisionLog {
    const counts = new Map<string, number>();
    for (const e of this.entries) counts.set(e.decision, (counts.get(e.decision) ?? 0) + 1);
    return {
      counts: [...counts]
        .map(([decision, count]) => ({ decision, count }))
        .sort((a, b) => a.decision.localeCompare(b.decision)),
      entries: this.entries,
    };
  }

  /** One event per execution, in start order. */
  events(
    records: Iterable<ExecutionRecord>,
    outcomes: ReadonlyMap<string, MigrationOutcome>,
    layout: Layout,
  ): MigrationEvent[] {
    const vms = new Map(layout.vms.map((v) => [v.uuid, v]));
    const events = [...records].map((r): MigrationEvent => {
      const input = r.input;
      const vm = vms.get(input.instance_uuid);
      const planned = this.planned.get(`${input.plan_id}/${input.instance_uuid}`);
      const outcome = outcomes.get(input.migration_id);
      const { status, error } = classify(r, outcome);
      return {
        migration_id: input.migration_id,
        plan_id: input.plan_id,
        wave: planned?.wave ?? 1,
        instance_uuid: input.instance_uuid,
        vm_name: vm?.name ?? input.instance_uuid,
        role: vm?.role ?? '',
        zone: vm?.zone ?? '',
        source_host: input.source_host,
        dest_host: input.dest_host,
        started_at: new Date(r.startedAt).toISOString(),
        ...(status === 'running' ? {} : { ended_at: new Date(r.endedAt ?? r.startedAt).toISOString() }),
        status,
        bytes: outcome?.bytes ?? input.estimated_bytes,
        reason: planned?.reason ?? '',
        ...(error ? { error } : {}),
      };
    });
    return events.sort(
      (a, b) => a.started_at.localeCompare(b.started_at) || a.migration_id.localeCompare(b.migration_id),
    );
  }
}

function classify(
  r: ExecutionRecord,
  outcome: MigrationOutcome | undefined,
): { status: MigrationStatus; error?: string } {
  if (r.error !== undefined)
    return { status: 'failed', error: `the local runner failed: ${String(r.error)}` };
  if (!r.run) return { status: 'running' };
  const cleanup = outcome?.cleanup_problems.length ? `; cleanup: ${outcome.cleanup_problems.join('; ')}` : '';
  if (outcome?.status === 'succeeded')
    return { status: 'succeeded', ...(cleanup ? { error: cleanup.slice(2) } : {}) };
  const cause = outcome?.error
    ? `${outcome.error}: ${outcome.cause ?? ''}`
    : `${r.run.error ?? r.run.status}: ${r.run.cause ?? ''}`;
  if (outcome?.status === 'deferred') return { status: 'failed', error: `deferred: ${cause}${cleanup}` };
  const drained = r.run.steps.includes('Drain');
  return { status: drained ? 'rolled_back' : 'failed', error: `${cause}${cleanup}` };
}
