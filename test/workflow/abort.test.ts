/**
 * Nova's abort is asynchronous: the migration is `cancelling` until the compute host stops it, and
 * an abort during `post-migrating` is refused because the VM is already landing on the destination.
 * Through the synthesized state machine and the real clients against the fake cloud.
 */
import { describe, expect, it } from 'vitest';
import {
  DEST,
  expectCleanEnd,
  heldLeases,
  K8S_NODE,
  migrationsTo,
  recordOf,
  SOURCE,
  useHarness,
  VM,
} from './harness.js';

const fixture = useHarness();

describe('aborting a live migration', () => {
  it('keeps the node drained and the leases held until Nova reports the abort cancelled', async () => {
    // Prepare: the migration stalls; once aborted it stays `cancelling` for three polls.
    const h = await fixture.start();
    h.nova.updateServer(VM, { migration: { outcome: 'stall', cancellingPolls: 3 } });
    const migration = h.migration();
    const seen: Array<{ status: string | undefined; cordoned: boolean | undefined; leases: number }> = [];
    // Act
    const run = await h.run(migration, {
      beforeStep: async (request) => {
        if (request.step !== 'rollback') return;
        seen.push({
          status: migrationsTo(h)[0]?.status,
          cordoned: h.k8s.cluster.node(K8S_NODE)?.unschedulable,
          leases: (await heldLeases(h, migration)).length,
        });
      },
    });
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'MigrationDeadlineError']);
    expect(seen.length).toBeGreaterThan(1);
    for (const before of seen) expect(before).toMatchObject({ status: 'cancelling', cordoned: true });
    expect(seen.every((s) => s.leases > 0)).toBe(true);
    expect(migrationsTo(h).map((m) => m.status)).toEqual(['cancelled']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    await expectCleanEnd(h, migration);
  });

  it('records the VM on the destination when the abort is refused in post-migrating', async () => {
    // Prepare: memory is copied after 3 polls, then the migration sits in post-migrating past the deadline.
    const h = await fixture.start();
    h.nova.updateServer(VM, { migration: { outcome: 'completed', steps: 3, postMigratingPolls: 10_000 } });
    const migration = h.migration();
    const statusAtRollback: string[] = [];
    // Act: once the rollback starts, the compute host finishes post-migration four polls later.
    const run = await h.run(migration, {
      beforeStep: (request) => {
        if (request.step !== 'rollback') return;
        const m = h.nova.state.migrations.find((x) => x.serverId === VM)!;
        statusAtRollback.push(m.status);
        if (statusAtRollback.length === 1) m.plan.postMigratingPolls = m.step - m.plan.steps + 4;
      },
    });
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'MigrationDeadlineError']);
    expect(statusAtRollback[0]).toBe('post-migrating');
    expect(migrationsTo(h).map((m) => m.status)).toEqual(['completed']);
    expect(h.nova.getServer(VM)?.host).toBe(DEST);
    const record = await recordOf(h, migration);
    expect(record).toMatchObject({ status: 'succeeded', final_host: DEST });
    expect(record.error).toBe('MigrationDeadlineError');
    await expectCleanEnd(h, migration);
  });

  it('waits for a migration Nova accepted but has not recorded yet, then aborts it (seen on real Nova)', async () => {
    // Prepare: the conductor creates the record only after the deadline has passed.
    const h = await fixture.start({ settings: { min_deadline_seconds: 1, deadline_factor: 1 } });
    h.nova.updateServer(VM, { migration: { outcome: 'stall', unrecordedPolls: 6 } });
    const migration = h.migration({ estimated_seconds: 1 });
    const cordonedAtRollback: (boolean | undefined)[] = [];
    // Act
    const run = await h.run(migration, {
      beforeStep: (request) => {
        if (request.step === 'rollback') cordonedAtRollback.push(h.k8s.cluster.node(K8S_NODE)?.unschedulable);
      },
    });
    // Assess: the node stayed drained until Nova's migration showed up and was cancelled.
    expect([run.status, run.error]).toEqual(['FAILED', 'MigrationDeadlineError']);
    expect(cordonedAtRollback.length).toBeGreaterThan(1);
    expect(cordonedAtRollback.every((c) => c === true)).toBe(true);
    expect(migrationsTo(h).map((m) => m.status)).toEqual(['cancelled']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    await expectCleanEnd(h, migration);
  });

  it('rolls back cleanly when the server is deleted after the drain (seen on real Nova: was CleanupFailed)', async () => {
    // Prepare
    const h = await fixture.start();
    const migration = h.migration();
    // Act
    const run = await h.run(migration, {
      beforeStep: (request) => {
        if (request.step === 'liveMigrate' && h.nova.getServer(VM)) h.nova.deleteServer(VM);
      },
    });
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'NovaRequestError']);
    expect(run.cause).toContain(`Instance ${VM} could not be found.`);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: null });
    await expectCleanEnd(h, migration);
  });
});
