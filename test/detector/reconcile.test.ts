import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvePlan, reconcile } from '../../lib/detector/index.js';
import { type Harness, openHarness, type StoreHarness, startDynamo } from './harness.js';

let dynamo: StoreHarness;
let h: Harness;
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(async () => {
  await dynamo.local.close();
});

const ids = (items: readonly { instance_uuid: string }[]) => items.map((m) => m.instance_uuid).sort();

describe('reconcile in auto mode', () => {
  it('makes an approved plan and sends wave 1 only', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    // Act
    const result = await reconcile(h.deps);
    // Assess
    const plan = result.plan!;
    expect(plan.status).toBe('approved');
    expect(plan.waves.length).toBeGreaterThan(1);
    const wave1 = plan.migrations.filter((m) => m.wave === 1);
    expect(ids(result.sent)).toEqual(ids(wave1));
    expect(ids(h.sentMessages())).toEqual(ids(wave1));
    const records = await h.deps.store.migrations.ofPlan(plan.plan_id);
    expect(records.filter((r) => r.status === 'queued')).toHaveLength(wave1.length);
    expect(records.filter((r) => r.status === 'planned')).toHaveLength(plan.migrations.length - wave1.length);
  });

  it('fills the plan message from the plan and the VM report, with a deterministic id', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    // Act
    const { plan, sent } = await reconcile(h.deps);
    // Assess
    const message = sent[0];
    const planned = plan!.migrations.find((m) => m.instance_uuid === message.instance_uuid)!;
    expect(message).toMatchObject({
      plan_id: plan!.plan_id,
      plan_expires_at: plan!.expires_at,
      source_host: planned.source_host,
      dest_host: planned.dest_host,
      planned_at: plan!.created_at,
      kubernetes_node: null,
    });
    expect(message.migration_id).toBe(`${plan!.plan_id}-${message.instance_uuid}`);
  });

  it('sends nothing more while wave 1 is still running', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    const first = await reconcile(h.deps);
    h.advance(1);
    // Act
    const second = await reconcile(h.deps);
    // Assess
    expect(second.sent).toEqual([]);
    expect(second.plan).toBeNull();
    expect(second.idle).toContain(first.plan!.plan_id);
    expect(h.sentMessages()).toHaveLength(first.sent.length);
  });

  it('sends the next wave once every migration of the previous one has finished', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    const first = await reconcile(h.deps);
    h.advance(2);
    await h.finish(first.sent);
    // Act
    const second = await reconcile(h.deps);
    // Assess
    const wave2 = first.plan!.migrations.filter((m) => m.wave === 2);
    expect(ids(second.sent)).toEqual(ids(wave2));
  });

  it('keeps one record per migration from planned to succeeded', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    const { sent } = await reconcile(h.deps);
    h.advance(2);
    // Act
    await h.finish(sent);
    // Assess
    const records = await h.deps.store.migrations.forInstance(sent[0].instance_uuid);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: 'succeeded',
      migration_id: sent[0].migration_id,
      wave: 1,
      final_host: sent[0].dest_host,
    });
  });

  it('completes the plan when every migration has ended, failures included', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    const { plan } = await reconcile(h.deps);
    const waveOf = new Map(plan!.migrations.map((m) => [m.instance_uuid, m.wave]));
    const completed: string[] = [];
    // Act
    for (const { wave } of plan!.waves) {
      h.advance(2);
      const running = h.sentMessages().filter((m) => waveOf.get(m.instance_uuid) === wave);
      await h.finish(running, wave === 1 ? 'failed' : 'succeeded');
      completed.push(...((await reconcile(h.deps)).completed ?? []));
    }
    // Assess
    expect(completed).toEqual([plan!.plan_id]);
    expect((await h.deps.store.plans.get(plan!.plan_id))?.status).toBe('completed');
    expect(h.sentMessages()).toHaveLength(plan!.migrations.length);
  });

  it('makes no new plan until the samples cover the time after the moves', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto');
    const { plan } = await reconcile(h.deps);
    for (const { wave } of plan!.waves) {
      h.advance(2);
      await h.finish(
        h
          .sentMessages()
          .filter((m) => plan!.migrations.find((p) => p.instance_uuid === m.instance_uuid)?.wave === wave),
      );
      await reconcile(h.deps);
    }
    h.advance(1);
    await h.report();
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.plan).toBeNull();
    expect(result.idle).toContain('settling');
  });
});

describe('reconcile in approve mode', () => {
  it('stores the plan as pending_approval and sends nothing', async () => {
    // Prepare
    h = await openHarness(dynamo, 'approve');
    // Act
    const first = await reconcile(h.deps);
    h.advance(1);
    const second = await reconcile(h.deps);
    // Assess
    expect(first.plan?.status).toBe('pending_approval');
    expect(first.sent).toEqual([]);
    expect(second.idle).toContain('waits for approval');
    expect(h.sentMessages()).toEqual([]);
  });

  it('sends wave 1 on the run after the approval', async () => {
    // Prepare
    h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    h.advance(1);
    // Act
    const approved = await approvePlan(h.deps.store, plan!.plan_id, h.now());
    const next = await reconcile(h.deps);
    // Assess
    expect(approved.status).toBe('approved');
    expect(ids(next.sent)).toEqual(ids(plan!.migrations.filter((m) => m.wave === 1)));
  });
});

describe('reconcile in recommend mode', () => {
  it('records the plan and never sends, however many runs follow', async () => {
    // Prepare
    h = await openHarness(dynamo, 'recommend');
    // Act
    const first = await reconcile(h.deps);
    h.advance(1);
    await h.report();
    const second = await reconcile(h.deps);
    // Assess
    expect(first.plan?.status).toBe('recommended');
    expect((await h.deps.store.plans.get(first.plan!.plan_id))?.status).toBe('recommended');
    expect(second.plan).toBeNull();
    expect(second.idle).toContain(`plan ${first.plan!.plan_id} stands`);
    expect(h.queue.stats().sent).toBe(0);
  });
});

describe('plan expiry', () => {
  it('expires a plan past its expiry and skips its never-sent migrations', async () => {
    // Prepare
    h = await openHarness(dynamo, 'approve', { plan_ttl_minutes: 20 });
    const { plan } = await reconcile(h.deps);
    h.advance(21);
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.expired).toEqual([plan!.plan_id]);
    expect((await h.deps.store.plans.get(plan!.plan_id))?.status).toBe('expired');
    const records = await h.deps.store.migrations.ofPlan(plan!.plan_id);
    expect(records.map((r) => [r.status, r.skip_reason])).toEqual(
      records.map(() => ['skipped', 'plan expired']),
    );
    expect(h.sentMessages()).toEqual([]);
  });

  it('leaves sent migrations to the workflow when an auto plan expires mid-way', async () => {
    // Prepare
    h = await openHarness(dynamo, 'auto', { plan_ttl_minutes: 20 });
    const { plan, sent } = await reconcile(h.deps);
    h.advance(21);
    // Act
    await reconcile(h.deps);
    // Assess
    const records = await h.deps.store.migrations.ofPlan(plan!.plan_id);
    expect(records.filter((r) => r.status === 'queued')).toHaveLength(sent.length);
    expect(records.filter((r) => r.status === 'skipped')).toHaveLength(plan!.migrations.length - sent.length);
  });
});
