import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Plan, SkippedVm } from '../../lib/model/plan.js';
import { at, useStore } from './fixtures.js';

const h = useStore();

let plans = 0;
function plan(overrides: Partial<Plan> = {}): Plan {
  return {
    plan_id: `p-${++plans}`,
    mode: 'approve',
    status: 'pending_approval',
    created_at: at(-10 + plans / 100),
    expires_at: at(60),
    migrations: [],
    skipped: [],
    waves: [],
    summary: {
      suffering_vms: 1,
      contended_hosts: 1,
      moved: 3,
      bytes: 0,
      lower_bound_bytes: 0,
      lower_bound_covers: { hosts: [], suffering_vms: 0, plan_bytes: 0 },
      waves: 1,
      suffering_left_predicted: 0,
      newly_suffering_predicted: 0,
    },
    ...overrides,
  };
}

describe('PlanRepository', () => {
  it('stores a plan once: a second put of the same id is refused and changes nothing', async () => {
    // Prepare
    const first = plan();
    // Act
    const stored = await h.store.plans.put(first);
    const again = await h.store.plans.put({ ...first, mode: 'auto', status: 'approved' });
    // Assess
    expect([stored, again]).toEqual([true, false]);
    const read = await h.store.plans.get(first.plan_id);
    expect(read?.status).toBe('pending_approval');
    expect(read?.plan).toEqual(first);
  });

  it('keeps a large plan whole (gzipped) and reads it back', async () => {
    // Prepare: ~150 KB of skipped VMs, above the inline limit but small once compressed.
    const skipped: SkippedVm[] = Array.from({ length: 1500 }, (_, i) => ({
      instance_uuid: `vm-${i}`,
      host: `cmp-${i % 40}`,
      code: 'cooldown',
      reason: `moved recently ${'x'.repeat(60)}`,
    }));
    const large = plan({ skipped });
    // Act
    await h.store.plans.put(large);
    // Assess
    expect((await h.store.plans.get(large.plan_id))?.plan.skipped).toHaveLength(1500);
  });

  it('cuts only the skipped list of a plan too large for one item', async () => {
    // Prepare: incompressible reasons, well past 300 KB gzipped.
    const skipped: SkippedVm[] = Array.from({ length: 3000 }, (_, i) => ({
      instance_uuid: `vm-${i}`,
      host: 'cmp-1',
      code: 'budget',
      reason: randomBytes(96).toString('base64'),
    }));
    const huge = plan({ skipped });
    // Act
    await h.store.plans.put(huge);
    // Assess
    const read = await h.store.plans.get(huge.plan_id);
    expect(read?.plan.skipped.length).toBeGreaterThan(0);
    expect(read?.plan.skipped.length).toBeLessThan(3000);
    expect(read?.plan.summary).toEqual(huge.summary);
  });

  it('moves a status only from the statuses named, once', async () => {
    // Prepare
    const p = plan();
    await h.store.plans.put(p);
    // Act
    const approved = await h.store.plans.setStatus(p.plan_id, ['pending_approval'], 'approved', {
      approved_at: at(0),
    });
    const twice = await h.store.plans.setStatus(p.plan_id, ['pending_approval'], 'approved');
    const unknown = await h.store.plans.setStatus('p-none', ['pending_approval'], 'approved');
    // Assess
    expect([approved, twice, unknown]).toEqual([true, false, false]);
    expect(await h.store.plans.status(p.plan_id)).toBe('approved');
    expect((await h.store.plans.get(p.plan_id))?.approved_at).toBe(at(0));
    expect(await h.store.plans.status('p-none')).toBeUndefined();
  });

  it('lists plans and their headers by status, oldest first', async () => {
    // Prepare
    const older = plan({ status: 'recommended', mode: 'recommend' });
    const newer = plan({ status: 'recommended', mode: 'recommend' });
    await h.store.plans.put(newer);
    await h.store.plans.put(older);
    // Act
    const listed = await h.store.plans.withStatus('recommended');
    const headers = await h.store.plans.headersWithStatus('recommended');
    // Assess
    expect(listed.map((p) => p.plan_id)).toEqual([older.plan_id, newer.plan_id]);
    expect(headers).toEqual(
      [older, newer].map((p) => ({
        plan_id: p.plan_id,
        status: 'recommended',
        created_at: p.created_at,
        plan_expires_at: p.expires_at,
        moved: 3,
      })),
    );
  });
});
