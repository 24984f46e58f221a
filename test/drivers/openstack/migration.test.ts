import { afterEach, describe, expect, it } from 'vitest';
import {
  NovaConflictError,
  OpenStackBadRequestError,
  OpenStackTimeoutError,
} from '../../../lib/drivers/openstack/errors.js';
import type { NovaClient } from '../../../lib/drivers/openstack/nova.js';
import type { ServerMigration } from '../../../lib/drivers/openstack/schemas.js';
import { caught, type Harness, SERVER_ID, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.fake.close();
});

/** Polls the server's in-progress migrations until there are none; returns what each poll saw. */
async function pollUntilDone(nova: NovaClient, maxPolls = 10): Promise<ServerMigration[][]> {
  const seen: ServerMigration[][] = [];
  for (let i = 0; i < maxPolls; i++) {
    const migrations = await nova.listServerMigrations(SERVER_ID);
    seen.push(migrations);
    if (migrations.length === 0 && i > 0) return seen;
  }
  return seen;
}

describe('live migration lifecycle against the fake cloud', () => {
  it('migrates, reports progress, completes, and leaves the server ACTIVE on the destination', async () => {
    h = await startHarness({ fake: { migrationSteps: 3 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const during = await h.nova.getServer(SERVER_ID);
    const seen = await pollUntilDone(h.nova);
    const after = await h.nova.getServer(SERVER_ID);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    expect([during.status, during.taskState]).toEqual(['MIGRATING', 'migrating']);
    expect(seen.flat().map((m) => m.status)).toEqual(['running']);
    const [running] = seen.flat();
    expect(running).toMatchObject({ sourceCompute: 'cmp-1', destCompute: 'cmp-2' });
    expect(running.memoryRemainingBytes).toBeLessThan(running.memoryTotalBytes ?? 0);
    expect([after.status, after.host, after.taskState]).toEqual(['ACTIVE', 'cmp-2', null]);
    expect(record).toMatchObject({
      status: 'completed',
      migrationType: 'live-migration',
      destCompute: 'cmp-2',
    });
  });

  it('reports memory counters that move towards zero remaining', async () => {
    h = await startHarness({ fake: { migrationSteps: 5 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const remaining: (number | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const [m] = await h.nova.listServerMigrations(SERVER_ID);
      remaining.push(m.memoryRemainingBytes);
    }
    expect(remaining[0]).toBeGreaterThan(remaining[1] ?? 0);
    expect(remaining[1]).toBeGreaterThan(remaining[2] ?? 0);
  });

  it('progresses with the fake clock when a duration is set', async () => {
    h = await startHarness({ fake: { migrationDurationMs: 60_000 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const early = await h.nova.listServerMigrations(SERVER_ID);
    const stillEarly = await h.nova.listServerMigrations(SERVER_ID);
    h.clock.advance(60_000);
    const done = await h.nova.getServer(SERVER_ID);
    expect([early, stillEarly]).toEqual([[], []]);
    expect(done.host).toBe('cmp-2');
  });

  it('shows a failed migration in os-migrations and leaves the server on the source', async () => {
    h = await startHarness();
    h.fake.updateServer(SERVER_ID, { migration: { outcome: 'error' } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    await pollUntilDone(h.nova);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    const server = await h.nova.getServer(SERVER_ID);
    expect(record.status).toBe('error');
    expect([server.status, server.host, server.taskState]).toEqual(['ACTIVE', 'cmp-1', null]);
  });

  it('fails a migration to the host the server is already on, asynchronously', async () => {
    h = await startHarness();
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-1' });
    await h.nova.getServer(SERVER_ID);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    expect(record.status).toBe('error');
  });

  it('force-completes a migration that would otherwise never converge', async () => {
    h = await startHarness();
    h.fake.updateServer(SERVER_ID, { migration: { outcome: 'stall' } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const stalled = (await pollUntilDone(h.nova, 8)).at(-1) ?? [];
    await h.nova.forceCompleteMigration(SERVER_ID, stalled[0].id);
    const afterForce = await h.nova.listServerMigrations(SERVER_ID);
    const server = await h.nova.getServer(SERVER_ID);
    expect(stalled.map((m) => m.status)).toEqual(['running']);
    expect(afterForce).toEqual([]);
    expect(server.host).toBe('cmp-2');
  });

  it('aborts a running migration: cancelled, server stays on the source', async () => {
    h = await startHarness({ fake: { migrationSteps: 10 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const [running] = await h.nova.listServerMigrations(SERVER_ID);
    await h.nova.abortMigration(SERVER_ID, running.id);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    const server = await h.nova.getServer(SERVER_ID);
    expect(record.status).toBe('cancelled');
    expect([server.status, server.host]).toEqual(['ACTIVE', 'cmp-1']);
  });

  it('aborts a migration that is still preparing (microversion 2.65 and later)', async () => {
    h = await startHarness({ fake: { migrationSteps: 5 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const [preparing] = await h.nova.listServerMigrations(SERVER_ID);
    await h.nova.abortMigration(SERVER_ID, preparing.id);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    expect(preparing.status).toBe('preparing');
    expect(record.status).toBe('cancelled');
  });

  it('cannot abort a preparing migration below microversion 2.65', async () => {
    h = await startHarness({ fake: { migrationSteps: 5 }, nova: { microversion: '2.60' } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const [preparing] = await h.nova.listServerMigrations(SERVER_ID);
    await expect(h.nova.abortMigration(SERVER_ID, preparing.id)).rejects.toThrow(OpenStackBadRequestError);
  });

  it('refuses to abort a migration that has already finished', async () => {
    h = await startHarness({ fake: { migrationSteps: 1 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    await h.nova.getServer(SERVER_ID);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    const error = await caught(h.nova.abortMigration(SERVER_ID, record.id));
    expect(error).toBeInstanceOf(NovaConflictError);
  });

  it('refuses to force-complete a migration that is not running yet', async () => {
    h = await startHarness({ fake: { migrationSteps: 5 } });
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    const error = await caught(h.nova.forceCompleteMigration(SERVER_ID, record.id));
    expect(error).toBeInstanceOf(OpenStackBadRequestError);
    expect(error.message).toContain('preparing');
  });

  it('refuses a second migration while the first runs', async () => {
    h = await startHarness();
    await h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' });
    await expect(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-3' })).rejects.toThrow(NovaConflictError);
    expect(h.fake.migrations()).toHaveLength(1);
  });

  it('shows a server moved by someone else on its new host', async () => {
    h = await startHarness();
    h.fake.moveServer(SERVER_ID, 'cmp-9');
    const server = await h.nova.getServer(SERVER_ID);
    const [record] = await h.nova.listMigrations({ instanceUuid: SERVER_ID });
    expect(server.host).toBe('cmp-9');
    expect(record).toMatchObject({ status: 'completed', destCompute: 'cmp-9' });
  });

  it('can start the migration and still time out the answer (a partial effect)', async () => {
    h = await startHarness({ nova: { timeoutMs: 50 } });
    h.fake.setFault('liveMigrate', { kind: 'hang', afterEffect: true, times: 1 });
    const error = await caught(h.nova.liveMigrate(SERVER_ID, { host: 'cmp-2' }));
    const server = await h.nova.getServer(SERVER_ID);
    expect(error).toBeInstanceOf(OpenStackTimeoutError);
    expect(server.taskState).toBe('migrating');
  });

  it('lets the scheduler pick a host when none is given', async () => {
    h = await startHarness({ fake: { hosts: ['cmp-1', 'cmp-7'], migrationSteps: 1 } });
    await h.nova.liveMigrate(SERVER_ID, { host: null });
    const server = await h.nova.getServer(SERVER_ID);
    expect(server.host).toBe('cmp-7');
  });
});
