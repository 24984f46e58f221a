import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { heartbeatPeriod } from '../../lib/store/writeMemo.js';
import { at, instanceDoc, message, NOW, useStore } from './fixtures.js';

const h = useStore();

/** The store's default. */
const HEARTBEAT = 15 * 60_000;

/** A report taken `minutes` after NOW (set after parsing, which rejects times ahead of NOW). */
const report = (uuid: string, minutes: number, extra: Record<string, unknown> = {}) => ({
  ...message([], [instanceDoc({ uuid, ...extra })]).instances[0],
  reported_at: at(minutes),
});

/** The raw item, to see what was written (updated_at is the writer's clock). */
async function item(store: FleetStore, uuid: string) {
  const { Item } = await store.ctx.doc.send(
    new GetCommand({ TableName: store.ctx.tables.instances, Key: { uuid }, ConsistentRead: true }),
  );
  return Item;
}

describe('unchanged instance states', () => {
  it('skips the write of a newer report that changes nothing but reported_at', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-1', -10));
    // Act
    const outcome = await h.store.putInstanceReport(report('u-1', -9));
    // Assess
    expect(outcome).toBe('unchanged');
    expect((await item(h.store, 'u-1'))?.reported_at).toBe(at(-10));
  });

  it('writes a newer report that changes the state at once', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-2', -10));
    // Act
    const outcome = await h.store.putInstanceReport(report('u-2', -9, { host: 'cmp9', nodename: 'cmp9' }));
    // Assess
    expect(outcome).toBe('stored');
    expect(await h.store.getInstance('u-2')).toMatchObject({ host: 'cmp9', reported_at: at(-9) });
  });

  it('counts a report it already skipped, delivered again, as stale', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-3', -10));
    await h.store.putInstanceReport(report('u-3', -9));
    // Act
    const outcome = await h.store.putInstanceReport(report('u-3', -9));
    // Assess
    expect(outcome).toBe('stale');
  });

  it('rewrites an unchanged state once its heartbeat is due, refreshing reported_at and the TTL', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-4', -10));
    const before = await item(h.store, 'u-4');
    const due = heartbeatPeriod('u-4', HEARTBEAT);
    h.setNow(new Date(NOW.getTime() + due));
    // Act
    const outcome = await h.store.putInstanceReport(report('u-4', due / 60_000 - 1));
    // Assess
    expect(outcome).toBe('stored');
    const after = await item(h.store, 'u-4');
    expect(after?.reported_at).toBe(at(due / 60_000 - 1));
    expect(Number(after?.expires_at)).toBeGreaterThan(Number(before?.expires_at));
  });

  it('still skips just before the heartbeat is due', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-5', -10));
    const due = heartbeatPeriod('u-5', HEARTBEAT);
    h.setNow(new Date(NOW.getTime() + due - 1));
    // Act
    const outcome = await h.store.putInstanceReport(report('u-5', 1));
    // Assess
    expect(outcome).toBe('unchanged');
  });

  it('writes an unchanged state when this store has not written it before (a cold container)', async () => {
    // Prepare
    await h.store.putInstanceReport(report('u-6', -10));
    const cold = new FleetStore(h.store.ctx);
    // Act
    const first = await cold.putInstanceReport(report('u-6', -9));
    const second = await cold.putInstanceReport(report('u-6', -8));
    // Assess
    expect([first, second]).toEqual(['stored', 'unchanged']);
  });
});

describe('last_migrated_at', () => {
  it('keeps the workflow’s later last_migrated_at when an agent report without one is written', async () => {
    // Prepare
    await h.store.putInstanceReport(report('m-1', -10));
    await h.store.markMigrated('m-1', at(-8));
    // Act: a changed state, so it is written
    const outcome = await h.store.putInstanceReport(report('m-1', -5, { name: 'renamed' }));
    // Assess
    expect(outcome).toBe('stored');
    expect(await h.store.getInstance('m-1')).toMatchObject({ name: 'renamed', last_migrated_at: at(-8) });
  });

  it('keeps it through a heartbeat rewrite of an unchanged state', async () => {
    // Prepare
    await h.store.putInstanceReport(report('m-2', -10));
    await h.store.markMigrated('m-2', at(-8));
    h.setNow(new Date(NOW.getTime() + HEARTBEAT));
    // Act
    const outcome = await h.store.putInstanceReport(report('m-2', 14));
    // Assess
    expect(outcome).toBe('stored');
    expect(await h.store.getInstance('m-2')).toMatchObject({ reported_at: at(14), last_migrated_at: at(-8) });
  });

  it('takes the report’s last_migrated_at when it is the later one', async () => {
    // Prepare
    await h.store.putInstanceReport(report('m-3', -10));
    await h.store.markMigrated('m-3', at(-8));
    // Act
    await h.store.putInstanceReport(report('m-3', -5, { last_migrated_at: at(-6) }));
    // Assess
    expect((await h.store.getInstance('m-3'))?.last_migrated_at).toBe(at(-6));
    expect((await item(h.store, 'm-3'))?.last_migrated_at).toBe(at(-6));
  });

  it('still counts an older report as stale when the stored item also has a later last_migrated_at', async () => {
    // Prepare
    await h.store.putInstanceReport(report('m-4', -5));
    await h.store.markMigrated('m-4', at(-4));
    // Act
    const outcome = await h.store.putInstanceReport(report('m-4', -7, { name: 'older' }));
    // Assess
    expect(outcome).toBe('stale');
    expect(await h.store.getInstance('m-4')).toMatchObject({ reported_at: at(-5), last_migrated_at: at(-4) });
  });
});
