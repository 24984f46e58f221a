import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approvePlan, DETECTOR_LEASE, DETECTOR_STATE_ID, reconcile } from '../../lib/detector/index.js';
import { updateDetectorState } from '../../lib/detector/state.js';
import { type Harness, openHarness, SHAPE, type StoreHarness, startDynamo } from './harness.js';
import { type CountedStore, countedStore } from './requests.js';

let dynamo: StoreHarness;
const opened: CountedStore[] = [];
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});
afterAll(async () => {
  await dynamo.local.close();
});

const counted = (h: Harness) => {
  const c = countedStore(dynamo, h);
  opened.push(c);
  return c;
};
const writes = (c: CountedStore) =>
  c.requests.filter((r) => r.command !== 'GetItemCommand' && r.command !== 'QueryCommand');
const leaseToken = async (h: Harness) => {
  const { Item } = await h.store.ctx.doc.send(
    new GetCommand({
      TableName: h.store.ctx.tables.leases,
      Key: { name: DETECTOR_LEASE },
      ConsistentRead: true,
    }),
  );
  return Item?.token as number | undefined;
};
const wave = (plan: { migrations: { wave: number; instance_uuid: string }[] }, n: number) =>
  plan.migrations
    .filter((m) => m.wave === n)
    .map((m) => m.instance_uuid)
    .sort();
const ids = (items: readonly { instance_uuid: string }[]) => items.map((m) => m.instance_uuid).sort();

describe('an idle minute', () => {
  it('with no plan and no new report: at most two reads, and no lease taken', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend', {}, { ...SHAPE, contendedShare: 0 });
    const first = await reconcile(h.deps);
    const token = await leaseToken(h);
    h.advance(1);
    const c = counted(h);
    // Act
    const result = await reconcile(c.deps);
    // Assess
    expect(first.idle).toBe('nothing suffering');
    expect(result.idle).toContain('no report newer');
    expect(c.requests.length).toBeLessThanOrEqual(2);
    expect(writes(c)).toEqual([]);
    expect(await leaseToken(h)).toBe(token);
  });

  it.each([
    ['waiting for approval', 'approve', 'waits for approval'],
    ['while a wave is still running', 'auto', 'still running'],
  ] as const)('%s: at most two reads, and no lease taken', async (_case, mode, reason) => {
    // Prepare
    const h = await openHarness(dynamo, mode);
    await reconcile(h.deps);
    const token = await leaseToken(h);
    h.advance(1);
    const c = counted(h);
    // Act
    const result = await reconcile(c.deps);
    // Assess
    expect(result.idle).toContain(reason);
    expect(c.requests.length).toBeLessThanOrEqual(2);
    expect(writes(c)).toEqual([]);
    expect(await leaseToken(h)).toBe(token);
  });
});

describe('work that is due without a new report', () => {
  it('advances a plan in progress every minute: each wave as soon as the one before it ended', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const { plan, sent } = await reconcile(h.deps);
    const sentByMinute = [ids(sent)];
    let running = sent;
    // Act
    for (let n = 2; n <= plan!.waves.length; n++) {
      h.advance(1);
      await h.finish(running);
      running = (await reconcile(h.deps)).sent;
      sentByMinute.push(ids(running));
    }
    // Assess
    expect(sentByMinute).toEqual(plan!.waves.map((w) => wave(plan!, w.wave)));
  });

  it('completes a plan in the minute after its last migration ended, taking the lease', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const { plan } = await reconcile(h.deps);
    for (let n = 1; n < plan!.waves.length; n++) {
      h.advance(1);
      await h.finish(h.sentMessages().slice(-wave(plan!, n).length));
      await reconcile(h.deps);
    }
    h.advance(1);
    await h.finish(h.sentMessages().slice(-wave(plan!, plan!.waves.length).length));
    const c = counted(h);
    // Act
    const result = await reconcile(c.deps);
    // Assess
    expect(result.completed).toEqual([plan!.plan_id]);
    expect(
      c.requests.some((r) => r.command === 'UpdateItemCommand' && r.table === h.store.ctx.tables.leases),
    ).toBe(true);
    expect((await h.store.detectorState.read()).live_plans).toEqual({});
  });

  it('expires a recommendation when its time is up, though no report arrived', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend', { plan_ttl_minutes: 20 });
    const { plan } = await reconcile(h.deps);
    h.advance(21);
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.expired).toEqual([plan!.plan_id]);
    expect((await h.store.plans.get(plan!.plan_id))?.status).toBe('expired');
    const records = await h.store.migrations.ofPlan(plan!.plan_id);
    expect(records.every((r) => r.status === 'skipped')).toBe(true);
  });

  it('sends wave 1 in the first minute after an approval made elsewhere', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    h.advance(1);
    await reconcile(h.deps);
    await approvePlan(h.store, plan!.plan_id, h.now());
    h.advance(1);
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(ids(result.sent)).toEqual(wave(plan!, 1));
    expect((await h.store.detectorState.read()).live_plans?.[plan!.plan_id]?.status).toBe('approved');
  });
});

describe('concurrent runs', () => {
  it('send a due wave once when two run at the same minute', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const first = await reconcile(h.deps);
    h.advance(1);
    await h.finish(first.sent);
    // Act
    const [a, b] = await Promise.all([reconcile(h.deps), reconcile(h.deps)]);
    // Assess
    expect(ids([...a.sent, ...b.sent])).toEqual(wave(first.plan!, 2));
    expect(h.queue.stats().sent).toBe(first.sent.length + wave(first.plan!, 2).length);
  });

  it('plan once when one run read the state before the other planned and took the lease after', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const late = counted(h);
    let planned!: () => void;
    const done = new Promise<void>((resolve) => {
      planned = resolve;
    });
    late.hold((r) => r.command === 'UpdateItemCommand' && r.table === h.store.ctx.tables.leases, done);
    // Act
    const lateRun = reconcile(late.deps);
    const first = await reconcile(h.deps);
    planned();
    const second = await lateRun;
    // Assess
    expect(first.plan).not.toBeNull();
    expect(second.plan).toBeNull();
    expect(second.idle).toContain(first.plan!.plan_id);
    expect(await h.store.plans.withStatus('approved')).toHaveLength(1);
    expect(h.queue.stats().sent).toBe(first.sent.length);
  });
});

describe('the live plans in the detector state', () => {
  it('are rebuilt from the index when a run died before tracking its plan: no second plan', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    const { plan } = await reconcile(h.deps);
    await updateDetectorState(h.store.detectorState, (s) => ({ ...s, live_plans: {} }));
    h.advance(1);
    await h.report();
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.plan).toBeNull();
    expect(result.idle).toContain(plan!.plan_id);
    expect(Object.keys((await h.store.detectorState.read()).live_plans ?? {})).toEqual([plan!.plan_id]);
  });

  it('are rebuilt from the index when the state item predates them', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    const { live_plans: _dropped, ...older } = await h.store.detectorState.read();
    await h.store.ctx.doc.send(
      new PutCommand({ TableName: h.store.ctx.tables.plans, Item: { plan_id: DETECTOR_STATE_ID, ...older } }),
    );
    h.advance(1);
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.idle).toContain(`plan ${plan!.plan_id} waits for approval`);
    expect((await h.store.detectorState.read()).live_plans?.[plan!.plan_id]?.status).toBe('pending_approval');
  });
});
