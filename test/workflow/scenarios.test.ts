/**
 * The synthesized state machine, run in aws-local-stepfunctions with its tasks bound to the real
 * step dispatcher, against the fake Keystone/Nova, Kubernetes and Consul servers through the real
 * clients. After every scenario: node schedulable, maintenance off, leases released, outcome
 * recorded, and no second migration of the VM (expectCleanEnd).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workflowDefinition } from '../../lib/local/workflowRunner.js';
import { hostSlots, vmLease } from '../../lib/workflow/leaseNames.js';
import { instanceDoc, message } from '../store/fixtures.js';
import {
  CONSUL_NODE,
  DEST,
  expectCleanEnd,
  type Harness,
  heldLeases,
  K8S_NODE,
  migrationsTo,
  recordOf,
  SOURCE,
  START,
  startHarness,
  VM,
} from './harness.js';

let h: Harness;
// One synthesis for the whole file: every scenario runs this very definition.
beforeAll(() => workflowDefinition(), 240_000);
afterEach(async () => {
  await h?.close();
});

const count = (steps: string[], state: string) => steps.filter((s) => s === state).length;

describe('a migration that goes well', () => {
  it('drains, live-migrates, verifies, undrains and records the move and its cooldown start', async () => {
    // Prepare
    h = await startHarness();
    await h.store.putReports(message([], [instanceDoc({ uuid: VM, host: SOURCE, nodename: SOURCE })]));
    const migration = h.migration();
    // Act
    const run = await h.run(migration);
    // Assess
    expect(run.status).toBe('SUCCEEDED');
    expect(h.nova.getServer(VM)).toMatchObject({ host: DEST, status: 'ACTIVE' });
    const record = await recordOf(h, migration);
    expect(record).toMatchObject({ status: 'succeeded', final_host: DEST, bytes: 24 * 2 ** 30, error: null });
    expect(record.steal_before_percent).toBe(12);
    expect((await h.store.getInstance(VM))?.last_migrated_at).toBe(record.finished_at);
    await expectCleanEnd(h, migration);
  });

  it('evicts the pods but leaves DaemonSet pods, as kubectl drain --ignore-daemonsets', async () => {
    h = await startHarness();
    const run = await h.run(h.migration());
    expect(run.output?.drain?.kubernetes).toMatchObject({ evicted: 1, skipped: 1 });
    expect(h.k8s.cluster.pods(K8S_NODE).map((p) => p.name)).toEqual(['node-exporter-x1']);
  });

  it('puts the Consul node in maintenance with a reason that names the migration', async () => {
    h = await startHarness();
    await h.run(h.migration());
    const enable = h.agent.requests.find((r) => r.method === 'PUT' && r.path.includes('enable=true'));
    expect(decodeURIComponent(enable?.path ?? '')).toContain('placid migration mig-0001');
  });

  it('migrates a VM that is neither a Kubernetes node nor a Consul agent', async () => {
    h = await startHarness();
    const migration = h.migration({ kubernetes_node: null, consul: null });
    const run = await h.run(migration);
    expect([run.status, h.k8s.requests.length, h.agent.requests.length]).toEqual(['SUCCEEDED', 0, 0]);
    await expectCleanEnd(h, migration);
  });
});

describe('Nova faults', () => {
  it('retries os-migrateLive after Nova 5xx and starts exactly one migration', async () => {
    h = await startHarness();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 503, times: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'LiveMigrate')]).toEqual(['SUCCEEDED', 3]);
    await expectCleanEnd(h, migration);
    expect(migrationsTo(h)).toHaveLength(1);
  });

  it('rolls back when Nova keeps failing with 5xx', async () => {
    h = await startHarness();
    h.nova.setFault('getServer', { kind: 'status', status: 500 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'NovaUnavailableError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', error: 'NovaUnavailableError' });
    await expectCleanEnd(h, migration);
  });

  it('waits out a 409 from a busy server', async () => {
    h = await startHarness();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 409, times: 1 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'LiveMigrate')]).toEqual(['SUCCEEDED', 2]);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when Nova keeps answering 409, leaving the VM on the source', async () => {
    h = await startHarness();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 409, message: 'instance is locked' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'ServerBusyError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    expect((await recordOf(h, migration)).cause).toContain('instance is locked');
    await expectCleanEnd(h, migration);
  });

  it('adopts the migration a timed-out os-migrateLive had started instead of starting another', async () => {
    h = await startHarness({ novaTimeoutMs: 1_000 });
    h.nova.setFault('liveMigrate', { kind: 'hang', afterEffect: true, times: 1 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'LiveMigrate'), run.output?.live?.adopted]).toEqual([
      'SUCCEEDED',
      2,
      true,
    ]);
    await expectCleanEnd(h, migration);
    expect(migrationsTo(h)).toHaveLength(1);
  });

  it('rolls back a migration that Nova ends in error', async () => {
    h = await startHarness();
    h.nova.updateServer(VM, { migration: { outcome: 'error' } });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'LiveMigrationFailedError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    await expectCleanEnd(h, migration);
  });

  it("aborts a migration that never completes at Placid's deadline", async () => {
    h = await startHarness();
    h.nova.updateServer(VM, { migration: { outcome: 'stall' } });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'MigrationDeadlineError']);
    expect(migrationsTo(h).map((m) => m.status)).toEqual(['cancelled']);
    expect(h.nova.getServer(VM)).toMatchObject({ host: SOURCE, status: 'ACTIVE' });
    // The deadline is min_deadline_seconds (300 s) at 10 s per poll.
    expect(h.clock.now() - START).toBeGreaterThanOrEqual(300_000);
    await expectCleanEnd(h, migration);
  });

  it('force-completes a migration at the deadline when configured to', async () => {
    h = await startHarness({ settings: { on_deadline: 'force-complete' } });
    h.nova.updateServer(VM, { migration: { outcome: 'stall' } });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, migrationsTo(h)[0]?.forceCompleted]).toEqual(['SUCCEEDED', true]);
    expect(h.nova.getServer(VM)?.host).toBe(DEST);
    await expectCleanEnd(h, migration);
  });
});

describe('drain faults', () => {
  it('rolls back when a PodDisruptionBudget blocks eviction past the drain deadline', async () => {
    h = await startHarness();
    h.k8s.cluster.addPod({ name: 'db-0', node: K8S_NODE, controller: 'StatefulSet', blockEvictions: 'forever' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'DrainBlockedError']);
    expect(h.k8s.cluster.pod('default', 'db-0')).toBeDefined();
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('evicts a pod once its PodDisruptionBudget allows it', async () => {
    h = await startHarness();
    h.k8s.cluster.addPod({ name: 'db-0', node: K8S_NODE, controller: 'StatefulSet', blockEvictions: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, h.k8s.cluster.pod('default', 'db-0')]).toEqual(['SUCCEEDED', undefined]);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when the Consul agent stays unreachable', async () => {
    h = await startHarness();
    h.agent.injectFault({ kind: 'unreachable', path: '/v1/agent/maintenance', times: 'forever' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'ConsulUnavailableError']);
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('retries a Consul agent that is briefly unreachable', async () => {
    h = await startHarness();
    h.agent.injectFault({ kind: 'unreachable', path: '/v1/agent/maintenance', times: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'Drain')]).toEqual(['SUCCEEDED', 3]);
    await expectCleanEnd(h, migration);
  });
});

describe('leases', () => {
  it('defers a migration whose VM is held by another execution, starting nothing', async () => {
    h = await startHarness();
    await h.store.acquireLease(vmLease(VM), 'mig-other', 3_600_000);
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.rollback]).toMatchObject(['SUCCEEDED', { status: 'deferred' }]);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error: 'VmLeaseHeldError' });
    expect(await h.store.acquireLease(vmLease(VM), 'mig-third', 1_000)).toBeUndefined();
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('waits for a busy destination slot with backoff, then defers, holding nothing', async () => {
    h = await startHarness();
    await h.store.acquireLease(hostSlots(DEST, h.deps.settings)[0], 'mig-other', 3_600_000);
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'AcquireLeases')]).toEqual(['SUCCEEDED', 11]);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error: 'LeaseBusyError' });
    await expectCleanEnd(h, migration);
  });

  it('starts as soon as the busy slot is given back', async () => {
    h = await startHarness();
    const slot = hostSlots(DEST, h.deps.settings)[0];
    await h.store.acquireLease(slot, 'mig-other', 3_600_000);
    const migration = h.migration();
    let attempts = 0;
    const run = await h.run(migration, {
      beforeStep: async (r) => {
        if (r.step === 'acquireLeases' && ++attempts === 3) await h.store.releaseLease(slot, 'mig-other');
      },
    });
    expect([run.status, count(run.steps, 'AcquireLeases')]).toEqual(['SUCCEEDED', 3]);
    await expectCleanEnd(h, migration);
  });
});

describe('steps retried after a partial effect', () => {
  it('adopts the migration started by an os-migrateLive that then failed', async () => {
    h = await startHarness();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 500, afterEffect: true, times: 1 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.live?.adopted]).toEqual(['SUCCEEDED', true]);
    await expectCleanEnd(h, migration);
    expect(migrationsTo(h)).toHaveLength(1);
  });

  it('carries on draining after a cordon whose answer was lost, and still uncordons', async () => {
    h = await startHarness();
    h.k8s.injectFault({ method: 'PATCH', path: `/nodes/${K8S_NODE}`, loseReply: true });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'Drain'), run.output?.undrain?.kubernetes]).toEqual([
      'SUCCEEDED',
      2,
      'uncordoned',
    ]);
    await expectCleanEnd(h, migration);
  });

  it('disables maintenance that a request with a lost answer had enabled', async () => {
    h = await startHarness();
    h.agent.injectFault({ kind: 'lose-reply', path: '/v1/agent/maintenance' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.drain?.consul?.outcome, run.output?.undrain?.consul]).toEqual([
      'SUCCEEDED',
      'already-enabled',
      'disabled',
    ]);
    await expectCleanEnd(h, migration);
  });
});

describe('the VM moved by someone else', () => {
  it('defers when the VM is no longer on the planned source', async () => {
    h = await startHarness();
    h.nova.moveServer(VM, 'cmp-3');
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.failure?.Error]).toEqual(['SUCCEEDED', 'VmMovedError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error: 'VmMovedError' });
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when the VM moves while its node is drained', async () => {
    h = await startHarness();
    const migration = h.migration();
    const run = await h.run(migration, {
      beforeStep: (r) => {
        if (r.step === 'liveMigrate') h.nova.moveServer(VM, 'cmp-3');
      },
    });
    expect([run.status, run.error]).toEqual(['FAILED', 'VmMovedError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: 'cmp-3' });
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });
});

describe('deferrals found by the re-check', () => {
  it.each([
    ['the plan has expired', 'PlanExpiredError', (x: Harness) => x.clock.advance(31 * 60_000), {}],
    ['a blackout window is open', 'BlackoutWindowError', () => {}, { blackout_windows: ['11:30-12:30'] }],
    [
      'the destination no longer fits',
      'DestinationRejectedError',
      (x: Harness) => {
        x.placement = { passes: false, reason: 'RamFilter: 512 MB free, 4096 MB requested' };
      },
      {},
    ],
    ['the server is shut off', 'ServerNotMigratableError', (x: Harness) => x.nova.updateServer(VM, { status: 'SHUTOFF', vmState: 'stopped' }), {}],
  ])('defers when %s', async (_why, error, arrange, settings) => {
    h = await startHarness({ settings });
    arrange(h);
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.failure?.Error]).toEqual(['SUCCEEDED', error]);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error });
    expect(h.k8s.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });
});

describe('input the workflow cannot act on', () => {
  it('fails at once on an invalid plan message, taking no lease', async () => {
    h = await startHarness();
    const migration = h.migration({ dest_host: SOURCE });
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'InvalidMigrationInputError']);
    expect(run.cause).toContain('dest_host');
    expect(await heldLeases(h, migration)).toEqual([]);
  });
});

// Referenced so the names stay in one place for readers of the harness.
void CONSUL_NODE;
