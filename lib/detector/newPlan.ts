/**
 * The planning half of a run, when no plan is in progress: read the fleet (only when the ingest
 * watermark says a report arrived since the last detection), detect with the last run's
 * hysteresis, plan, store the plan and its records, and in auto mode send wave 1 at once.
 */
import { createHash } from 'node:crypto';
import type { Plan } from '../model/plan.js';
import { detect } from '../rebalance/detect.js';
import { planRebalance } from '../rebalance/planner.js';
import type { StoredInstance } from '../store/instances.js';
import { type AdvanceResult, advanceApproved } from './advance.js';
import { readFleet } from './fleetRead.js';
import { candidateVms, moveHistory } from './history.js';
import { plannedRecord } from './planRecords.js';
import type { DetectorState } from './state.js';
import type { DetectorDeps, ReconcileResult } from './types.js';

export const DEFAULT_READ_CONCURRENCY = 16;

type PlanOutcome = Pick<ReconcileResult, 'plan' | 'sent' | 'idle' | 'suffering' | 'considered'>;

/**
 * `state` as read at the start of the run; `settleUntil` its settle time, maybe moved on by this
 * run; `watermark` the ingest watermark if the caller has just read it (else it is read here).
 */
export async function planIfNeeded(
  deps: DetectorDeps,
  now: Date,
  state: DetectorState,
  settleUntil: string | null,
  watermark?: string | null,
): Promise<PlanOutcome> {
  const repo = deps.store.detectorState;
  const concurrency = deps.readConcurrency ?? DEFAULT_READ_CONCURRENCY;
  if (settleUntil !== null && Date.parse(settleUntil) > now.getTime()) {
    if (settleUntil !== state.settle_until) await repo.write(state, { ...state, settle_until: settleUntil });
    return idle(`settling: the last plan's moves ended recently; no new plan before ${settleUntil}`);
  }
  // The ingest watermark, not the hosts' reported_at: an unchanged host state is not rewritten, so
  // host items no longer tell when the last report arrived. Checked first: an idle run reads no hosts.
  const newest = watermark !== undefined ? watermark : await deps.store.ingestWatermark();
  if (newest === null) return idle('no report ingested yet');
  if (state.newest_report_at !== null && newest <= state.newest_report_at) {
    return idle(`no report newer than the last detection's (${state.newest_report_at})`);
  }
  const hosts = await deps.store.listHosts();
  if (hosts.length === 0) return idle('no hosts in the store');
  const fleet = await readFleet({
    store: deps.store,
    hosts,
    now,
    settings: deps.settings,
    config: deps.config,
    concurrency,
    full: deps.fullRead,
  });
  deps.logger?.info('fleet read', { windows: fleet.windowSource, hosts: hosts.length });
  const detection = detect(
    { now, hosts: fleet.observed.hosts, vms: fleet.observed.vms, previouslySuffering: state.suffering },
    deps.settings,
  );
  const suffering = detection.suffering.length;
  const next = {
    ...state,
    suffering: detection.suffering,
    newest_report_at: newest,
    detected_at: now.toISOString(),
    settle_until: null,
  };
  const save = async (changes: Partial<DetectorState> = {}) => {
    if (!(await repo.write(state, { ...next, ...changes }))) {
      deps.logger?.warn('detector state changed under this run; its hysteresis update was dropped');
    }
  };
  if (suffering === 0) {
    await save();
    return { ...idle('nothing suffering'), suffering };
  }
  const history = await moveHistory(
    deps.store.migrations,
    candidateVms(detection, fleet.instances),
    now,
    deps.settings,
    concurrency,
  );
  const plan = await planRebalance({
    fleet: { ...fleet, history },
    settings: deps.settings,
    config: deps.config,
    plugins: deps.plugins,
    detection,
  });
  if (plan.migrations.length === 0) {
    await save();
    const reason = `${suffering} suffering VM(s), no migration planned (${skipCounts(plan)})`;
    return { ...idle(reason), suffering, considered: plan };
  }
  const fingerprint = fingerprintOf(plan);
  const last = state.recommended;
  if (
    plan.mode === 'recommend' &&
    last?.fingerprint === fingerprint &&
    Date.parse(last.plan_expires_at) > now.getTime()
  ) {
    await save();
    return { ...idle(`recommendation unchanged: plan ${last.plan_id} stands`), suffering };
  }
  const instances = new Map(fleet.instances.map((vm) => [vm.uuid, vm as StoredInstance]));
  const records = plan.migrations.map((m) => plannedRecord(plan, m, instances.get(m.instance_uuid)));
  // Records first: a plan that is visible (and may be approved) always has its records.
  await deps.store.migrations.putPlanned(records);
  await deps.store.plans.put(plan);
  deps.logger?.info('plan made', { plan_id: plan.plan_id, status: plan.status, migrations: records.length });
  const sent: AdvanceResult = { sent: [], expired: [], completed: [], ended: [] };
  if (plan.status === 'approved') await advanceApproved(deps, plan, now, sent, records);
  await save(
    plan.mode === 'recommend'
      ? { recommended: { plan_id: plan.plan_id, fingerprint, plan_expires_at: plan.expires_at } }
      : {},
  );
  return { plan, sent: sent.sent, suffering };
}

function idle(reason: string): PlanOutcome {
  return { plan: null, sent: [], idle: reason };
}

/** What a plan decides (which VM goes where), without its times: equal for an unchanged recommendation. */
function fingerprintOf(plan: Plan): string {
  const moves = plan.migrations.map((m) => `${m.instance_uuid}>${m.source_host}>${m.dest_host}`).sort();
  return createHash('sha256').update(moves.join('\n')).digest('hex').slice(0, 32);
}

function skipCounts(plan: Plan): string {
  const counts = new Map<string, number>();
  for (const s of plan.skipped) counts.set(s.code, (counts.get(s.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code}: ${n}`).join(', ') || 'no VM considered';
}
