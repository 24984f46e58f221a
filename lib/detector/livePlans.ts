/**
 * The plans that may still change, as the detector state tracks them (state.ts `live_plans`):
 * what a run needs to know about each without reading its body, the one-attribute status read
 * that tells an approval (PlanRepository.status), and the rebuild from the byStatus index.
 */
import type { Plan } from '../model/plan.js';
import type { PlanRepository } from '../store/plans.js';
import type { DetectorState, TrackedPlan } from './state.js';

/** The statuses that may still change; `approved` and `pending_approval` block new planning. */
export const LIVE_STATUSES: readonly TrackedPlan['status'][] = [
  'approved',
  'pending_approval',
  'recommended',
];

export function trackedOf(plan: Plan): TrackedPlan {
  return {
    status: plan.status,
    created_at: plan.created_at,
    plan_expires_at: plan.expires_at,
    moved: plan.migrations.length,
  };
}

/** The live plans oldest first (ties by id), as runs act on them. */
export function liveInOrder(live: Readonly<Record<string, TrackedPlan>>): [string, TrackedPlan][] {
  return Object.entries(live).sort(
    ([a, x], [b, y]) => x.created_at.localeCompare(y.created_at) || a.localeCompare(b),
  );
}

/** The changes a run made to the live plans: merged into whatever state is current when written. */
export interface LiveChanges {
  /** Plans no longer live (completed, expired, or found so by this run). */
  remove: string[];
  /** New entries of plans already tracked (a status this run saw change). */
  update: Record<string, TrackedPlan>;
  /** Plans to start tracking (made by this run, or found in the index). */
  add: Record<string, TrackedPlan>;
}

export const noChanges = (): LiveChanges => ({ remove: [], update: {}, add: {} });

export const hasChanges = (c: LiveChanges): boolean =>
  c.remove.length > 0 || Object.keys(c.update).length > 0 || Object.keys(c.add).length > 0;

/**
 * `state` with `changes` applied. An update of a plan another run has since removed is dropped
 * (it ended); an added plan already tracked keeps its entry.
 */
export function withChanges(state: DetectorState, changes: LiveChanges): Record<string, TrackedPlan> {
  const live = { ...(state.live_plans ?? {}) };
  for (const id of changes.remove) delete live[id];
  for (const [id, entry] of Object.entries(changes.update)) if (live[id]) live[id] = entry;
  for (const [id, entry] of Object.entries(changes.add)) {
    if (!changes.remove.includes(id)) live[id] ??= entry;
  }
  return live;
}

/**
 * The plans with one of `statuses` as the detector state tracks them, without their bodies (the
 * byStatus index: eventually consistent, so a plan stored a moment ago may be missing).
 */
export async function livePlansInIndex(
  plans: Pick<PlanRepository, 'headersWithStatus'>,
  statuses: readonly TrackedPlan['status'][] = LIVE_STATUSES,
): Promise<Record<string, TrackedPlan>> {
  const lists = await Promise.all(statuses.map((status) => plans.headersWithStatus(status)));
  return Object.fromEntries(
    lists.flat().map(({ plan_id, status, created_at, plan_expires_at, moved }) => {
      const entry: TrackedPlan = {
        status: status as TrackedPlan['status'],
        created_at,
        plan_expires_at,
        moved,
      };
      return [plan_id, entry];
    }),
  );
}
