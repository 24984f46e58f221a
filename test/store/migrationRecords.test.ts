import { describe, expect, it } from 'vitest';
import type { MigrationRecordItem } from '../../lib/model/migration.js';
import { at, hypervisorDoc, message, NOW, useStore } from './fixtures.js';

const h = useStore();

const expiresAt = Math.floor(NOW.getTime() / 1000) + 86_400;

function planned(
  uuid: string,
  planId: string,
  overrides: Partial<MigrationRecordItem> = {},
): MigrationRecordItem {
  return {
    instance_uuid: uuid,
    started_at: at(-30),
    planned_at: at(-30),
    migration_id: `${planId}-${uuid}`,
    plan_id: planId,
    plan_expires_at: at(60),
    source_host: 'cmp1',
    dest_host: 'cmp2',
    estimated_bytes: 1,
    estimated_seconds: 1,
    correlation_id: planId,
    status: 'planned',
    expires_at: expiresAt,
    ...overrides,
  };
}

describe('MigrationRecordRepository', () => {
  it('writes planned records once: a repeated run leaves the stored ones as they are', async () => {
    // Prepare
    await h.store.migrations.putPlanned([planned('vm-a', 'p-1'), planned('vm-b', 'p-1')]);
    await h.store.migrations.leavePlanned(planned('vm-a', 'p-1'), 'queued', NOW);
    // Act
    await h.store.migrations.putPlanned([planned('vm-a', 'p-1'), planned('vm-b', 'p-1')]);
    // Assess
    const records = await h.store.migrations.ofPlan('p-1');
    expect(records.map((r) => [r.instance_uuid, r.status]).sort()).toEqual([
      ['vm-a', 'queued'],
      ['vm-b', 'planned'],
    ]);
  });

  it('lets exactly one caller move a record out of planned, and undoes only its own queueing', async () => {
    // Prepare
    const record = planned('vm-c', 'p-2');
    await h.store.migrations.putPlanned([record]);
    // Act
    const tries = await Promise.all(
      [1, 2, 3].map(() => h.store.migrations.leavePlanned(record, 'queued', NOW)),
    );
    await h.store.migrations.returnToPlanned(record, new Date(NOW.getTime() + 1));
    const afterOther = (await h.store.migrations.forInstance('vm-c'))[0]?.status;
    await h.store.migrations.returnToPlanned(record, NOW);
    // Assess
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect(afterOther).toBe('queued');
    expect((await h.store.migrations.forInstance('vm-c'))[0]?.status).toBe('planned');
  });

  it('records the skip reason when a plan expires', async () => {
    // Prepare
    const record = planned('vm-d', 'p-3');
    await h.store.migrations.putPlanned([record]);
    // Act
    await h.store.migrations.leavePlanned(record, 'skipped', NOW, 'plan expired');
    // Assess
    const [stored] = await h.store.migrations.forInstance('vm-d');
    expect([stored?.status, stored?.skip_reason, stored?.skipped_at]).toEqual([
      'skipped',
      'plan expired',
      NOW.toISOString(),
    ]);
  });

  it("updates a migration's own record but never another migration's with the same key", async () => {
    // Prepare
    const record = planned('vm-e', 'p-4');
    await h.store.migrations.putPlanned([record]);
    const key = { instance_uuid: 'vm-e', started_at: record.started_at };
    // Act
    const running = await h.store.migrations.writeOwn(key, record.migration_id, { status: 'running' });
    await h.store.migrations.writeOwn(key, record.migration_id, { status: 'succeeded' });
    const late = await h.store.migrations.writeOwn(
      key,
      record.migration_id,
      { status: 'running' },
      { onlyWhileUnfinished: true },
    );
    const other = h.store.migrations.writeOwn(key, 'someone-else', { status: 'failed' });
    // Assess
    expect([running, late]).toEqual([true, false]);
    await expect(other).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect((await h.store.migrations.forInstance('vm-e'))[0]?.status).toBe('succeeded');
  });

  it("reads an instance's records since a time, expired ones left out", async () => {
    // Prepare
    await h.store.migrations.putPlanned([
      planned('vm-f', 'p-old', { started_at: at(-300) }),
      planned('vm-f', 'p-new', { started_at: at(-5) }),
      planned('vm-f', 'p-gone', { started_at: at(-2), expires_at: expiresAt - 2 * 86_400 }),
    ]);
    // Act
    const all = await h.store.migrations.forInstance('vm-f');
    const recent = await h.store.migrations.forInstance('vm-f', new Date(at(-60)));
    // Assess
    expect(all.map((r) => r.plan_id)).toEqual(['p-old', 'p-new']);
    expect(recent.map((r) => r.plan_id)).toEqual(['p-new']);
  });
});

describe('the store beside its repositories', () => {
  it('answers whether it holds a compute node', async () => {
    // Prepare
    await h.store.putReports(message([hypervisorDoc({ host: 'cmp9', nodename: 'cmp9' })]));
    // Act
    const answers = await Promise.all([
      h.store.hasNode('cmp9', 'cmp9'),
      h.store.hasNode('cmp9', 'other-node'),
      h.store.hasNode('cmp404', 'cmp404'),
    ]);
    // Assess
    expect(answers).toEqual([true, false, false]);
  });

  it('lists the leases held now, not the released or expired ones', async () => {
    // Prepare
    await h.store.acquireLease('held-b', 'w', 60_000);
    await h.store.acquireLease('held-a', 'w', 60_000);
    await h.store.acquireLease('released', 'w', 60_000);
    await h.store.releaseLease('released', 'w');
    h.setNow(new Date(NOW.getTime() - 120_000));
    await h.store.acquireLease('lapsed', 'w', 60_000);
    h.setNow(NOW);
    // Act
    const held = await h.store.heldLeases();
    // Assess
    expect(held).toEqual(['held-a', 'held-b']);
  });
});
