import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detect } from '../../../functions/detect/handler.js';
import { DetectorEventError, parseTrigger, reconcile } from '../../../lib/detector/index.js';
import { openHarness, type StoreHarness, startDynamo } from '../../detector/harness.js';

let dynamo: StoreHarness;
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(async () => {
  await dynamo.local.close();
});

const scheduled = { trigger: 'schedule', scheduled_time: '2026-12-01T12:00:00Z' };
const requested = { source: 'placid', 'detail-type': 'Placid Detect Requested', detail: {} };
const alarm = {
  source: 'aws.cloudwatch',
  'detail-type': 'CloudWatch Alarm State Change',
  detail: { alarmName: 'placid-steal-high', state: { value: 'ALARM' } },
};
const approved = (planId: unknown) => ({
  source: 'placid',
  'detail-type': 'Placid Plan Approved',
  detail: { plan_id: planId },
});

describe('parseTrigger', () => {
  it.each([
    ['the schedule input', scheduled, 'schedule'],
    ['an EventBridge rule schedule', { source: 'aws.events', 'detail-type': 'Scheduled Event' }, 'schedule'],
    ['an operator request', requested, 'requested'],
    ['a CloudWatch alarm', alarm, 'alarm'],
    ['an approval', approved('plan-1'), 'approved'],
  ])('recognises %s', (_name, event, kind) => {
    // Act / Assess
    expect(parseTrigger(event).kind).toBe(kind);
  });

  it.each([
    ['an unknown source', { source: 'aws.s3', 'detail-type': 'Object Created' }, /source "aws.s3"/],
    ['a non-object', 'run please', /detector event is "run please"/],
    ['an approval without a plan id', approved(undefined), /detail.plan_id must be the plan's id/],
  ])('refuses %s with a clear error', (_name, event, message) => {
    // Act / Assess
    expect(() => parseTrigger(event)).toThrow(DetectorEventError);
    expect(() => parseTrigger(event)).toThrow(message);
  });
});

describe('the detector handler', () => {
  it('reconciles on the schedule: an auto plan sends its first wave', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    // Act
    const result = await detect(scheduled, h.deps);
    // Assess
    expect(result.plan?.status).toBe('approved');
    expect(result.sent).toHaveLength(h.queue.stats().sent);
    expect(result.sent.length).toBeGreaterThan(0);
  });

  it('approves the plan named by a Plan Approved event, then sends its first wave', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    // Act
    const result = await detect(approved(plan!.plan_id), h.deps);
    // Assess
    expect(result.approved).toBe(plan!.plan_id);
    expect((await h.deps.store.plans.get(plan!.plan_id))?.status).toBe('approved');
    expect(result.sent).toHaveLength(plan!.migrations.filter((m) => m.wave === 1).length);
  });

  it('takes a repeated approval event as done, not as a failure', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'approve');
    const { plan } = await reconcile(h.deps);
    await detect(approved(plan!.plan_id), h.deps);
    // Act
    const again = await detect(approved(plan!.plan_id), h.deps);
    // Assess
    expect(again.approved).toBeUndefined();
    expect(again.sent).toEqual([]);
  });

  it('runs on an alarm and on an operator request', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    // Act
    const first = await detect(alarm, h.deps);
    const second = await detect(requested, h.deps);
    // Assess
    expect(first.plan?.status).toBe('recommended');
    expect(second.idle).toContain('no report newer');
  });

  it('fails on an event it does not know, before touching the store', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'auto');
    // Act / Assess
    await expect(detect({ hello: 'world' }, h.deps)).rejects.toThrow(DetectorEventError);
    expect(h.queue.stats().sent).toBe(0);
  });
});
