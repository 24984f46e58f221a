/**
 * What each live plan needs now, found by reads only, so a run can tell it has nothing to do
 * without taking the lease: a plan past its expiry is expired; a plan pending approval costs one
 * status read (approved since?); an approved plan one records query (a wave due, or all ended?).
 */
import type { MigrationRecordItem } from '../model/migration.js';
import { liveInOrder } from './livePlans.js';
import type { TrackedPlan } from './state.js';
import type { DetectorDeps } from './types.js';
import { waveGate } from './waveGate.js';

export interface PlanStep {
  plan_id: string;
  /** The plan as tracked, with the status this inspection saw. */
  plan: TrackedPlan;
  /**
   * expire it (past its expiry); untrack it (no longer live); complete it (every migration
   * ended); advance it (approved: send the due wave, or wait); leave it (waiting for approval,
   * or a recommendation).
   */
  kind: 'expire' | 'untrack' | 'complete' | 'advance' | 'leave';
  /** Something to write: a wave to send, a plan to expire, complete or untrack, a status seen change. */
  work: boolean;
  /** The plan is being approved or executed: no new plan meanwhile. */
  blocks: boolean;
  /** Its status changed since the state was written (approved since): the state must say so. */
  changed?: boolean;
  waiting?: string;
  /** An approved plan's records, as read. */
  records?: MigrationRecordItem[];
}

/** The live plans' steps, oldest plan first; the plans are inspected at once. */
export function inspectPlans(
  deps: DetectorDeps,
  live: Readonly<Record<string, TrackedPlan>>,
  now: Date,
): Promise<PlanStep[]> {
  return Promise.all(liveInOrder(live).map(([id, plan]) => inspectPlan(deps, id, plan, now)));
}

async function inspectPlan(
  deps: DetectorDeps,
  id: string,
  tracked: TrackedPlan,
  now: Date,
): Promise<PlanStep> {
  const step = { plan_id: id, plan: tracked };
  if (Date.parse(tracked.plan_expires_at) <= now.getTime()) {
    return { ...step, kind: 'expire', work: true, blocks: false };
  }
  if (tracked.status === 'recommended') return { ...step, kind: 'leave', work: false, blocks: false };
  if (tracked.status === 'pending_approval') {
    const status = await deps.store.plans.status(id);
    if (status === 'pending_approval') {
      const waiting = `plan ${id} waits for approval (placid approve ${id})`;
      return { ...step, kind: 'leave', work: false, blocks: true, waiting };
    }
    // Completed, expired or gone by another run's hand: only the tracking is left to drop.
    if (status !== 'approved') return { ...step, kind: 'untrack', work: true, blocks: false };
  }
  const plan: TrackedPlan = { ...tracked, status: 'approved' };
  const seenApproved = tracked.status !== 'approved';
  const records = await deps.store.migrations.ofPlan(id);
  const approved = { plan_id: id, plan, records, changed: seenApproved };
  if (records.length < plan.moved) {
    // The index lags the writes: finishing now would complete a plan that never ran.
    const waiting = `plan ${id} in progress: its records are not all visible yet`;
    return { ...approved, kind: 'advance', work: seenApproved, blocks: true, waiting };
  }
  const gate = waveGate(records, now, deps.settings);
  if (gate.kind === 'finished') return { ...approved, kind: 'complete', work: true, blocks: false };
  if (gate.kind === 'send') return { ...approved, kind: 'advance', work: true, blocks: true };
  const waiting = `plan ${id} in progress: ${gate.reason}`;
  return { ...approved, kind: 'advance', work: seenApproved, blocks: true, waiting };
}
