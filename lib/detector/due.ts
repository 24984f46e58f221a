/**
 * Whether a run has anything to do, decided from the detector state item, the live plans'
 * inspection (inspect.ts) and the ingest watermark, before any lease is taken: an idle minute
 * with no plan in progress costs two reads. Work is a plan to advance, complete, expire or
 * untrack, or a detection: no plan blocking, the fleet settled, and a report newer than the last
 * detection's.
 */
import { inspectPlans, type PlanStep } from './inspect.js';
import type { DetectorState } from './state.js';
import type { DetectorDeps } from './types.js';

export interface Due {
  /** Why the run has nothing to do; undefined when it has work (and takes the lease). */
  idle?: string;
  steps: PlanStep[];
  /** The ingest watermark, when it was read (null: nothing ingested yet). */
  watermark?: string | null;
  /** The state predates tracking the live plans: rebuild them from the byStatus index first. */
  untracked: boolean;
}

export async function workDue(deps: DetectorDeps, state: DetectorState, now: Date): Promise<Due> {
  if (state.live_plans === null) return { steps: [], untracked: true };
  const steps = await inspectPlans(deps, state.live_plans, now);
  if (steps.some((s) => s.work)) return { steps, untracked: false };
  const blocking = steps.find((s) => s.blocks);
  if (blocking) {
    return { steps, untracked: false, idle: blocking.waiting ?? `plan ${blocking.plan_id} in progress` };
  }
  return { steps, untracked: false, ...(await detectionDue(deps, state, now)) };
}

/**
 * Whether a detection may run: not while the fleet settles after a plan's moves, and only when a
 * report newer than the last detection's was ingested (the ingest watermark; newPlan.ts records
 * the one it detected on as `newest_report_at`).
 */
export async function detectionDue(
  deps: DetectorDeps,
  state: DetectorState,
  now: Date,
  known?: string | null,
): Promise<Pick<Due, 'idle' | 'watermark'>> {
  const settle = state.settle_until;
  if (settle !== null && Date.parse(settle) > now.getTime()) {
    return { idle: `settling: the last plan's moves ended recently; no new plan before ${settle}` };
  }
  const watermark = known !== undefined ? known : await deps.store.ingestWatermark();
  if (watermark === null) return { watermark, idle: 'no report ingested yet' };
  const last = state.newest_report_at;
  if (last !== null && watermark <= last) {
    return { watermark, idle: `no report newer than the last detection's (${last})` };
  }
  return { watermark };
}
