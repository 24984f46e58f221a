/**
 * One detector run (the reconcile loop). It first decides, from reads only, whether there is
 * anything to do (due.ts); an idle minute ends there, without the lease. Otherwise, under a lease
 * so two runs never plan at once: (a) move the plans already made along (advance.ts), then
 * (b) when none is in progress, make a new one (newPlan.ts). Sends are deduplicated by
 * conditional record updates, so even a run whose lease lapsed mid-way cannot send a migration
 * twice; every state write is version-checked.
 */
import { randomUUID } from 'node:crypto';
import { actOnPlans } from './advance.js';
import { detectionDue, type Due, workDue } from './due.js';
import { inspectPlans, type PlanStep } from './inspect.js';
import { hasChanges, type LiveChanges, livePlansInIndex, trackedOf, withChanges } from './livePlans.js';
import { planIfNeeded } from './newPlan.js';
import { type DetectorState, readDetectorState, updateDetectorState } from './state.js';
import type { DetectorDeps, ReconcileResult } from './types.js';

export const DETECTOR_LEASE = 'placid-detector';
/** Longer than a run takes (keep the Lambda's timeout under it), short enough that a crashed run blocks little. */
export const DETECTOR_LEASE_TTL_MS = 2 * 60_000;

const idleResult = (idle: string | undefined): ReconcileResult => ({ plan: null, sent: [], expired: [], idle });

export async function reconcile(deps: DetectorDeps): Promise<ReconcileResult> {
  const now = deps.now();
  const ctx = deps.store.ctx;
  const seen = await readDetectorState(ctx);
  const due = await workDue(deps, seen, now);
  if (due.idle !== undefined) return idleResult(due.idle);
  const runId = deps.runId ?? randomUUID();
  const lease = await deps.store.acquireLease(DETECTOR_LEASE, runId, DETECTOR_LEASE_TTL_MS);
  if (!lease) return idleResult('another detector run holds the lease');
  try {
    // Read again under the lease: a run that just released it may have planned meanwhile.
    const state = await readDetectorState(ctx);
    const fresh = state.version === seen.version ? due : await workDue(deps, state, now);
    if (fresh.idle !== undefined) return idleResult(fresh.idle);
    return await work(deps, now, state, fresh);
  } finally {
    await deps.store.releaseLease(DETECTOR_LEASE, runId);
  }
}

async function work(deps: DetectorDeps, now: Date, read: DetectorState, due: Due): Promise<ReconcileResult> {
  let state = read;
  let steps = due.steps;
  if (due.untracked) ({ state, steps } = await trackIndexed(deps, state, now));
  const advanced = await actOnPlans(deps, steps, now);
  state = await saveAdvance(deps, state, advanced.changes, advanced.ended.length > 0, now);
  const base = { expired: advanced.expired, completed: advanced.completed };
  const waiting = (id: string, reason?: string) => reason ?? `plan ${id} in progress`;
  if (advanced.inProgress) {
    return { ...base, plan: null, sent: advanced.sent, idle: waiting(advanced.inProgress.plan_id, advanced.waiting) };
  }
  const detection = await detectionDue(deps, state, now, due.watermark);
  if (detection.idle !== undefined) return { ...base, plan: null, sent: advanced.sent, idle: detection.idle };
  if (!due.untracked) {
    // A run that died between storing its plan and tracking it left it only in the index.
    const found = await trackIndexed(deps, state, now);
    if (found.steps.length > 0) {
      const adopted = await actOnPlans(deps, found.steps, now);
      state = await saveAdvance(deps, found.state, adopted.changes, adopted.ended.length > 0, now);
      base.expired.push(...adopted.expired);
      base.completed.push(...adopted.completed);
      advanced.sent.push(...adopted.sent);
      if (adopted.inProgress) {
        return { ...base, plan: null, sent: advanced.sent, idle: waiting(adopted.inProgress.plan_id, adopted.waiting) };
      }
    } else state = found.state;
  }
  const made = await planIfNeeded(deps, now, state, state.settle_until);
  if (made.plan) {
    const plan = made.plan;
    await updateDetectorState(deps.store.ctx, (s) => ({
      ...s,
      live_plans: withChanges(s, { remove: [], update: {}, add: { [plan.plan_id]: trackedOf(plan) } }),
    }));
  }
  return { ...base, ...made, sent: [...advanced.sent, ...made.sent] };
}

/** Starts tracking the live plans the byStatus index shows and the state does not; their steps. */
async function trackIndexed(
  deps: DetectorDeps,
  state: DetectorState,
  now: Date,
): Promise<{ state: DetectorState; steps: PlanStep[] }> {
  const indexed = await livePlansInIndex(deps.store.ctx);
  const tracked = state.live_plans ?? {};
  const add = Object.fromEntries(Object.entries(indexed).filter(([id]) => !tracked[id]));
  if (Object.keys(add).length === 0 && state.live_plans !== null) return { state, steps: [] };
  for (const id of Object.keys(add)) deps.logger?.warn('live plan was not tracked; tracking it', { plan_id: id });
  const written = await updateDetectorState(
    deps.store.ctx,
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
  const settle = ended ? new Date(now.getTime() + deps.settings.sustain_minutes * 60_000).toISOString() : null;
  if (!(changes && hasChanges(changes)) && settle === null) return state;
  return updateDetectorState(
    deps.store.ctx,
    (s) => ({
      ...s,
      live_plans: changes ? withChanges(s, changes) : s.live_plans,
      settle_until: settle !== null && (s.settle_until === null || settle > s.settle_until) ? settle : s.settle_until,
    }),
    state,
  );
}
