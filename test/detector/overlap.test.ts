import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdvanceResult, advanceApproved } from '../../lib/detector/advance.js';
import {
  approvePlan,
  ExpiredPlanApprovalError,
  PlanNotPendingError,
  reconcile,
  UnknownPlanError,
} from '../../lib/detector/index.js';
import { detect } from '../../lib/rebalance/detect.js';
import { hostObservation } from '../../lib/rebalance/fleetInput.js';
import { openHarness, type StoreHarness, startDynamo } from './harness.js';

let dynamo: StoreHarness;
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(async () => {
  await dynamo.local.close();
});

const fresh = (): AdvanceResult => ({ sent: [], expired: [], completed: [], ended: [] });

describe('overlapping runs', () => {
  it('send each migration once when two reconciles run at the same time', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    // Act
    const [a, b] = await Promise.all([reconcile(h.deps), reconcile(h.deps)]);
    // Assess
    const plan = (a.plan ?? b.plan)!;
    const wave1 = plan.migrations.filter((m) => m.wave === 1).length;
    expect(a.sent.length + b.sent.length).toBe(wave1);
    expect(h.queue.stats().sent).toBe(wave1);
  });

  it('send each migration once even past the lease: the record update decides', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    await approvePlan(h.deps.store, plan!.plan_id, h.now());
    const [x, y] = [fresh(), fresh()];
    // Act
    await Promise.all([
      advanceApproved(h.deps, plan!, h.now(), x),
      advanceApproved(h.deps, plan!, h.now(), y),
    ]);
    // Assess
    const wave1 = plan!.migrations.filter((m) => m.wave === 1).length;
    expect(x.sent.length + y.sent.length).toBe(wave1);
    expect(h.queue.stats().sent).toBe(wave1);
  });
});

describe('hysteresis across runs', () => {
  it('keeps a VM suffering while its steal sits between the exit and entry thresholds', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    await reconcile(h.deps);
    const before = await h.deps.store.detectorState.read();
    const vm = before.suffering[0];
    h.advance(1);
    // Steal drops to 7 %: under the 10 % entry threshold, above the 5 % exit threshold.
    const later = await h.report((f) => {
      for (const s of f.instances.find((i) => i.uuid === vm)!.samples) s.steal_percent = 7;
    });
    // Act
    await reconcile(h.deps);
    // Assess
    const after = await h.deps.store.detectorState.read();
    expect(after.suffering).toContain(vm);
    const stateless = detect(
      { now: later.now, hosts: later.hypervisors.map(hostObservation), vms: later.instances },
      h.deps.settings,
    );
    expect(stateless.suffering).not.toContain(vm);
  });

  it('skips detection when no report arrived since the last run', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    await reconcile(h.deps);
    h.advance(1);
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.idle).toContain('no report newer');
    expect(result.suffering).toBeUndefined();
  });
});

describe('approvePlan', () => {
  it('refuses an unknown plan id', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    // Act / Assess
    await expect(approvePlan(h.deps.store, 'plan-0000', h.now())).rejects.toBeInstanceOf(UnknownPlanError);
  });

  it('refuses a plan past its expiry, even before the detector marked it', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve', { plan_ttl_minutes: 15 });
    const { plan } = await reconcile(h.deps);
    h.advance(16);
    // Act / Assess
    await expect(approvePlan(h.deps.store, plan!.plan_id, h.now())).rejects.toBeInstanceOf(
      ExpiredPlanApprovalError,
    );
    expect((await h.deps.store.plans.get(plan!.plan_id))?.status).toBe('pending_approval');
  });

  it('refuses a recommendation: only approve-mode plans wait for approval', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    const { plan } = await reconcile(h.deps);
    // Act
    const approval = approvePlan(h.deps.store, plan!.plan_id, h.now());
    // Assess
    await expect(approval).rejects.toBeInstanceOf(PlanNotPendingError);
    await expect(approval).rejects.toThrow(/is recommended/);
  });
});
