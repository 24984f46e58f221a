/**
 * One detector run (the reconcile loop). It first decides, from reads only, whether there is
 * anything to do (due.ts); an idle minute ends there, without the lease. Otherwise, under a lease
 * so two runs never plan at once: (a) move the plans already made along (advance.ts), then
 * (b) when none is in progress, make a new one (newPlan.ts). Sends are deduplicated by
 * conditional record updates, so even a run whose lease lapsed mid-way cannot send a migration
 * twice; every state write is version-checked.
 */
import { randomUUID } from 'node:crypto';
import type { MigrationInput } from '../model/migration.js';
import { actOnPlans } from './advance.js';
import { type Due, detectionDue, workDue } from './due.js';
import { inspectPlans, type PlanStep } from './inspect.js';
import { hasChanges, type LiveChanges, livePlansInIndex, trackedOf, withChanges } from './livePlans.js';
import { planIfNeeded } from './newPlan.js';
import { type DetectorState, updateDetectorState } from './state.js';
import type { DetectorDeps, ReconcileResult } from './types.js';

export const DETECTOR_LEASE = 'placid-detector';
/** Longer than a run takes (keep the Lambda's timeout under it), short enough that a crashed run blocks little. */
export const DETECTOR_LEASE_TTL_MS = 2 * 60_000;

const idleResult = (idle: string | undefined): ReconcileResult => ({
  plan: null,
  sent: [],
  expired: [],
  idle,
});

export async function reconcile(deps: DetectorDeps): Promise<ReconcileResult> {
  const now = new Date(deps.clock.now());
  const repo = deps.store.detectorState;
  const seen = await repo.read();
  const due = await workDue(deps, seen, now);
  if (due.idle !== undefined) return idleResult(due.idle);
  const runId = deps.runId ?? randomUUID();
  const lease = await deps.store.acquireLease(DETECTOR_LEASE, runId, DETECTOR_LEASE_TTL_MS);
  if (!lease) return idleResult('another detector run holds the lease');
  try {
    // Read again under the lease: a run that just released it may have planned meanwhile.
    const state = await repo.read();
    const fresh = state.version === seen.version ? due : await workDue(deps, state, now);
    if (fresh.idle !== undefined) return idleResult(fresh.idle);
    return await work(deps, now, state, fresh);
  } finally {
    await deps.store.releaseLease(DETECTOR_LEASE, runId);
  }
}

async function work(deps: DetectorDeps, now: Date, read: DetectorState, due: Due): Promise<ReconcileResult> {
  let state = read;
  const done = {
    plan: null,
    sent: [] as MigrationInput[],
    expired: [] as string[],
    completed: [] as string[],
  };
  /** Acts on `steps`, keeps what happened; what the plan in progress waits for, if one is. */
  const advance = async (steps: readonly PlanStep[]): Promise<string | undefined> => {
    const r = await actOnPlans(deps, steps, now);
    state = await saveAdvance(deps, state, r.changes, r.ended.length > 0, now);
    done.sent.push(...r.sent);
    done.expired.push(...r.expired);
    done.completed.push(...r.completed);
    return r.inProgress && (r.waiting ?? `plan ${r.inProgress.plan_id} in progress`);
  };
  const untracked = async (): Promise<PlanStep[]> => {
    const found = await trackIndexed(deps, state, now);
    state = found.state;
    return found.steps;
  };
  let waiting = await advance(due.untracked ? await untracked() : due.steps);
  if (waiting) return { ...done, idle: waiting };
  const detection = await detectionDue(deps, state, now, due.watermark);
  if (detection.idle !== undefined) return { ...done, idle: detection.idle };
  // A run that died between storing its plan and tracking it left the plan only in the index.
  if (!due.untracked) waiting = await advance(await untracked());
  if (waiting) return { ...done, idle: waiting };
  const made = await planIfNeeded(deps, now, state, state.settle_until, detection.watermark);
  if (made.plan) {
    const add = { [made.plan.plan_id]: trackedOf(made.plan) };
    await updateDetectorState(deps.store.detectorState, (s) => ({
      ...s,
      live_plans: withChanges(s, { remove: [], update: {}, add }),
    }));
  }
  return { ...done, ...made, sent: [...done.sent, ...made.sent] };
}

/** Starts tracking the live plans the byStatus index shows and the state does not; their steps. */
async function trackIndexed(
  deps: DetectorDeps,
  state: DetectorState,
  now: Date,
): Promise<{ state: DetectorState; steps: PlanStep[] }> {
  const indexed = await livePlansInIndex(deps.store.plans);
  const tracked = state.live_plans ?? {};
  const add = Object.fromEntries(Object.entries(indexed).filter(([id]) => !tracked[id]));
  if (Object.keys(add).length === 0 && state.live_plans !== null) return { state, steps: [] };
  for (const id of Object.keys(add))
    deps.logger?.warn('live plan was not tracked; tracking it', { plan_id: id });
  const written = await updateDetectorState(
    deps.store.detectorState,
    (s) => ({ ...s, live_plans: withChanges(s, { remove: [], update: {}, add }) }),
    state,
  );
  return { state: written, steps: await inspectPlans(deps, add, now) };
}

/** Writes how the live plans changed, and the settle time when a plan that moved VMs ended. */
async function saveAdvance(
  deps: DetectorDeps,
  state: DetectorState,
  changes: LiveChanges | undefined,
  ended: boolean,
  now: Date,
): Promise<DetectorState> {
  const settle = ended
    ? new Date(now.getTime() + deps.settings.sustain_minutes * 60_000).toISOString()
    : null;
  if (!(changes && hasChanges(changes)) && settle === null) return state;
  return updateDetectorState(
    deps.store.detectorState,
    (s) => ({
      ...s,
      live_plans: changes ? withChanges(s, changes) : s.live_plans,
      settle_until:
        settle !== null && (s.settle_until === null || settle > s.settle_until) ? settle : s.settle_until,
    }),
    state,
  );
}
