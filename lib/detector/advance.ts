/**
 * Moves the plans already made along: sends the due wave of each approved plan, completes plans
 * whose migrations have all ended, and expires plans past their expiry (their never-sent
 * migrations become `skipped`). Every transition is a conditional write, so overlapping runs
 * cannot send a migration twice or undo each other's work.
 * Acts on what inspect.ts found due; a run takes the lease first.
 */

import type { MigrationInput, MigrationRecordItem } from '../model/migration.js';
import type { StoredPlan } from '../model/plan.js';
import { mapLimit } from '../store/concurrency.js';
import type { FleetStore } from '../store/fleetStore.js';
import type { PlanStep } from './inspect.js';
import { LIVE_STATUSES, type LiveChanges, noChanges } from './livePlans.js';
import { messageOf } from './planRecords.js';
import type { DetectorDeps } from './types.js';
import { waveGate } from './waveGate.js';

export const PLAN_EXPIRED_REASON = 'plan expired';

export interface AdvanceResult {
  sent: MigrationInput[];
  expired: string[];
  completed: string[];
  /** Plans that ended this run (completed, or expired) after sending at least one migration. */
  ended: string[];
  /** A plan that is still being approved or executed: no new plan is made meanwhile. */
  inProgress?: Pick<StoredPlan, 'plan_id'>;
  /** What the in-progress plan waits for, for the run's `idle`. */
  waiting?: string;
  /** How the live plans changed, for the detector state. */
  changes?: LiveChanges;
}

/** Acts on the inspected plans in order; `changes` says how the live plans changed. */
export async function actOnPlans(
  deps: DetectorDeps,
  steps: readonly PlanStep[],
  now: Date,
): Promise<AdvanceResult> {
  const changes = noChanges();
  const result: AdvanceResult = { sent: [], expired: [], completed: [], ended: [], changes };
  for (const step of steps) {
    const id = step.plan_id;
    if (step.kind === 'expire') {
      const expired = await expirePlan(deps.store, { plan_id: id }, now);
      if (expired.won) result.expired.push(id);
      if (expired.won && expired.sentAny) result.ended.push(id);
      changes.remove.push(id);
    } else if (step.kind === 'untrack') {
      changes.remove.push(id);
    } else if (step.kind === 'advance' || step.kind === 'complete') {
      const plan = { plan_id: id, summary: { moved: step.plan.moved } };
      await advanceApproved(deps, plan, now, result, step.records);
      // Finished is final even when another run marked it completed first.
      if (step.kind === 'complete') changes.remove.push(id);
      else if (step.changed) changes.update[id] = step.plan;
    } else if (step.blocks) {
      result.inProgress ??= { plan_id: id };
      result.waiting ??= step.waiting;
    }
  }
  return result;
}

/** Sends the due wave of an approved plan, or completes it when every migration has ended. */
export async function advanceApproved(
  deps: DetectorDeps,
  plan: Pick<StoredPlan, 'plan_id'> & { summary: { moved: number } },
  now: Date,
  result: AdvanceResult,
  /** The records as just read or written (a new plan: the byPlan index may not show them yet). */
  written?: readonly MigrationRecordItem[],
): Promise<void> {
  const { plans, migrations } = deps.store;
  const records = written ?? (await migrations.ofPlan(plan.plan_id));
  if (records.length < plan.summary.moved) {
    // The index lags the writes: finishing now would complete a plan that never ran.
    result.inProgress ??= plan;
    result.waiting ??= `plan ${plan.plan_id} in progress: its records are not all visible yet`;
    return;
  }
  const gate = waveGate(records, now, deps.settings);
  if (gate.kind === 'finished') {
    if (await plans.setStatus(plan.plan_id, ['approved'], 'completed', { completed_at: now.toISOString() })) {
      result.completed.push(plan.plan_id);
      result.ended.push(plan.plan_id);
      deps.logger?.info('plan completed', { plan_id: plan.plan_id });
    }
    return;
  }
  result.inProgress ??= plan;
  if (gate.kind === 'wait') {
    result.waiting ??= `plan ${plan.plan_id} in progress: ${gate.reason}`;
    return;
  }
  const sent = await mapLimit(gate.due, deps.store.ctx.concurrency, async (record) => {
    // The conditional update is the deduplication: only the run that moved it to queued sends it.
    if (!(await migrations.leavePlanned(record, 'queued', now))) return undefined;
    const message = messageOf(record);
    try {
      await deps.planQueue.send(JSON.stringify(message), { correlation_id: message.correlation_id });
    } catch (error) {
      // Not sent: back to planned, so the next run sends it (the starter dedups if it did arrive).
      await migrations.returnToPlanned(record, now);
      deps.logger?.warn('plan message not sent', { migration_id: message.migration_id, error });
      return undefined;
    }
    return message;
  });
  const mine = sent.filter((m): m is MigrationInput => m !== undefined);
  result.sent.push(...mine);
  result.waiting ??= `plan ${plan.plan_id} in progress: wave ${gate.wave} sent`;
  if (mine.length > 0) {
    deps.logger?.info('migrations queued', { plan_id: plan.plan_id, wave: gate.wave, count: mine.length });
  }
}

/**
 * Marks the plan expired and its never-sent migrations skipped. `won`: false when another run
 * expired it first; `sentAny`: some of its migrations had been sent.
 */
export async function expirePlan(
  store: Pick<FleetStore, 'plans' | 'migrations' | 'ctx'>,
  plan: Pick<StoredPlan, 'plan_id'>,
  now: Date,
): Promise<{ won: boolean; sentAny: boolean }> {
  const won = await store.plans.setStatus(plan.plan_id, LIVE_STATUSES, 'expired', {
    expired_at: now.toISOString(),
  });
  // Skip the leftovers even when another run won: it may have died between the two steps.
  const records = await store.migrations.ofPlan(plan.plan_id);
  await mapLimit(
    records.filter((r) => r.status === 'planned'),
    store.ctx.concurrency,
    (r) => store.migrations.leavePlanned(r, 'skipped', now, PLAN_EXPIRED_REASON),
  );
  return { won, sentAny: records.some((r) => r.status !== 'planned' && r.status !== 'skipped') };
}
