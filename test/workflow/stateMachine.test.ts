/**
 * The synthesized state machine, run in aws-local-stepfunctions with its tasks bound to the real
 * step dispatcher, against the fake Keystone/Nova, Kubernetes and Consul servers through the real
 * clients. After every scenario: node schedulable, maintenance off, leases released, outcome
 * recorded, and no second migration of the VM (expectCleanEnd).
 */
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowDefinition } from '../../lib/local/workflowDefinition.js';
import { AGENT_STEP_NAMES, CLOUD_STEP_NAMES } from '../../lib/workflow/dispatch.js';
import { DEFERRAL_ERRORS, SYSTEM_TRANSIENT_ERRORS } from '../../lib/workflow/errors.js';
import { hostSlots, vmLease } from '../../lib/workflow/leaseNames.js';
import { runCli } from '../cli/runCli.js';
import { storeWithVm } from '../cli/storeWithVm.js';
import { instanceDoc, message } from '../store/fixtures.js';
import {
  DEST,
  expectCleanEnd,
  type Harness,
  heldLeases,
  K8S_NODE,
  migrationsTo,
  recordOf,
  SOURCE,
  START,
  useHarness,
  VM,
} from './harness.js';

const fixture = useHarness();

const count = (steps: string[], state: string) => steps.filter((s) => s === state).length;

type AnyState = Record<string, unknown> & { Type: string };
type Retrier = {
  ErrorEquals: string[];
  MaxAttempts?: number;
  BackoffRate?: number;
  IntervalSeconds?: number;
};
type Catcher = { ErrorEquals: string[]; Next: string; ResultPath?: string };

describe('the synthesized definition', () => {
  let asl: StateMachineDefinition;
  let tasks: Array<[string, AnyState]>;
  beforeAll(async () => {
    asl = await workflowDefinition();
    tasks = Object.entries(asl.States as Record<string, AnyState>).filter(([, st]) => st.Type === 'Task');
  });
  const state = (name: string) => (asl.States as Record<string, AnyState>)[name];

  it('uses JSONPath only, which is all aws-local-stepfunctions evaluates', () => {
    const text = JSON.stringify(asl);
    expect(text).not.toMatch(/JSONata|QueryLanguage|"Arguments"|"Output"|\{%/);
  });

  const isActivity = (st: AnyState) => String(st.Resource).includes(':activity:');

  it('invokes the steps Lambda for the AWS-side steps and the agents’ activity for the on-premises ones', () => {
    for (const [name, st] of tasks) {
      expect(st.Resource, name).toMatch(
        /^arn:aws:(lambda:us-east-1:\d{12}:function:\w*StepsFunction|states:us-east-1:\d{12}:activity:\w*AgentSteps)/,
      );
      expect(st.Parameters, name).toEqual({ step: expect.any(String), 'state.$': '$' });
    }
    const stepsOf = (onAgent: boolean) =>
      new Set(
        tasks
          .filter(([, st]) => isActivity(st) === onAgent)
          .map(([, st]) => (st.Parameters as { step: string }).step),
      );
    expect(stepsOf(false)).toEqual(new Set(CLOUD_STEP_NAMES));
    expect(stepsOf(true)).toEqual(new Set(AGENT_STEP_NAMES));
    expect(stepsOf(true)).toEqual(
      new Set([
        'recheck',
        'drain',
        'liveMigrate',
        'pollMigration',
        'onDeadline',
        'verify',
        'undrain',
        'rollback',
        'defer',
      ]),
    );
  });

  it('heartbeats every agent task and retries a lost agent first, on the next agent that polls', () => {
    for (const [name, st] of tasks.filter(([, s]) => isActivity(s))) {
      expect(st.HeartbeatSeconds, name).toBe(60);
      expect(st.TimeoutSeconds, name).toBeGreaterThan(60);
      expect(((st.Retry ?? []) as Retrier[])[0]?.ErrorEquals, name).toEqual(['States.HeartbeatTimeout']);
    }
  });

  it('retries Lambda throttling on every Lambda task, so a throttled record cannot end in CleanupFailed', () => {
    for (const [name, st] of tasks.filter(([, s]) => !isActivity(s))) {
      const retried = ((st.Retry ?? []) as Retrier[]).flatMap((r) => r.ErrorEquals);
      expect(retried, name).toContain('Lambda.TooManyRequestsException');
    }
  });

  it('keeps waiting about an hour for an agent to run the cleanup, then records why it gave up', () => {
    for (const name of ['Rollback', 'Defer']) {
      const retry = state(name).Retry as Retrier[];
      expect(
        retry.flatMap((r) => r.ErrorEquals),
        name,
      ).toEqual(expect.arrayContaining(['CleanupIncompleteError', 'States.Timeout']));
      expect((state(name).Catch as Catcher[])[0]).toMatchObject({
        ErrorEquals: ['States.ALL'],
        Next: 'RecordCleanupFailure',
        ResultPath: '$.cleanup_failure',
      });
    }
    expect(state('RecordCleanupFailure').Next).toBe('CleanupFailed');
  });

  it('retries each transient error class on a retrier of its own, with backoff', () => {
    for (const [name, st] of tasks) {
      const retry = (st.Retry ?? []) as Retrier[];
      for (const error of SYSTEM_TRANSIENT_ERRORS) {
        const retrier = retry.find((r) => r.ErrorEquals.includes(error));
        expect(retrier?.ErrorEquals, `${name} ${error}`).toEqual([error]);
        expect(retrier?.BackoffRate, `${name} ${error}`).toBeGreaterThan(1);
      }
      expect(
        retry.flatMap((r) => r.ErrorEquals),
        name,
      ).not.toContain('States.ALL');
    }
  });

  it('retries busy leases only while acquiring and a busy server only around os-migrateLive', () => {
    const retried = (name: string) => ((state(name).Retry ?? []) as Retrier[]).flatMap((r) => r.ErrorEquals);
    expect(retried('AcquireLeases')).toContain('LeaseBusyError');
    expect(retried('LiveMigrate')).toContain('ServerBusyError');
    expect(retried('Drain')).not.toContain('LeaseBusyError');
  });

  it('sends every failure to Rollback, which ends in a Fail state after cleanup', () => {
    const cleanupPath = ['Rollback', 'Defer', 'RecordRollback', 'RecordDeferral', 'RecordCleanupFailure'];
    for (const [name, st] of tasks.filter(([n]) => !cleanupPath.includes(n))) {
      const last = ((st.Catch ?? []) as Catcher[]).at(-1);
      expect(last, name).toEqual({ ErrorEquals: ['States.ALL'], Next: 'Rollback', ResultPath: '$.failure' });
    }
    expect([state('Rollback').Next, state('RecordRollback').Next]).toEqual([
      'RecordRollback',
      'MigrationFailed',
    ]);
    expect(state('MigrationFailed')).toMatchObject({ Type: 'Fail', ErrorPath: '$.failure.Error' });
    const cleanupCatch = (state('Rollback').Catch as Catcher[])[0];
    expect(state(state(cleanupCatch.Next).Next as string).Type).toBe('Fail');
  });

  it('defers only errors raised before anything was changed', () => {
    const deferring = tasks
      .filter(([, st]) => ((st.Catch ?? []) as Catcher[]).some((c) => c.Next === 'Defer'))
      .map(([name]) => name);
    expect(deferring.sort()).toEqual(['AcquireLeases', 'CheckPlan', 'Recheck']);
    const deferCatch = (state('Recheck').Catch as Catcher[]).find((c) => c.Next === 'Defer');
    expect(deferCatch?.ErrorEquals.sort()).toEqual([...DEFERRAL_ERRORS].sort());
  });

  it('polls with a Wait/Choice loop that leaves it at the deadline, not with a sleeping Lambda', () => {
    expect(state('WaitForMigration')).toMatchObject({
      SecondsPath: '$.live.poll_interval_seconds',
      Next: 'PollMigration',
    });
    expect(state('PollMigration').Next).toBe('MigrationDone');
    const choices = state('MigrationDone').Choices as Array<{ StringEquals?: string; Next: string }>;
    expect(choices.map((c) => [c.StringEquals, c.Next])).toEqual([
      ['completed', 'Verify'],
      ['deadline', 'OnDeadline'],
      [undefined, 'OnDeadline'],
      [undefined, 'RenewLeases'],
    ]);
    expect(state('MigrationDone').Default).toBe('WaitForMigration');
    expect(state('RenewLeases').Next).toBe('WaitForMigration');
  });

  it('bounds the poll loop so an execution stays well below the 25,000-event history limit', () => {
    const choices = state('MigrationDone').Choices as Array<{
      NumericGreaterThanEquals?: number;
      Next: string;
    }>;
    const bound = choices.find((c) => c.NumericGreaterThanEquals !== undefined);
    expect(bound?.Next).toBe('OnDeadline');
    // Wait (2 events) + activity task (5) + Choice (2) per poll, a renewal (5) at most every other poll.
    expect(bound!.NumericGreaterThanEquals! * (9 + 5 / 2)).toBeLessThan(25_000);
  });
});

describe('a migration that goes well', () => {
  it('drains, live-migrates, verifies, undrains and records the move and its cooldown start', async () => {
    // Prepare
    const h = await fixture.start();
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
    const h = await fixture.start();
    const migration = h.migration();
    const run = await h.run(migration);
    expect(run.output?.drain?.kubernetes).toMatchObject({ evicted: 1, skipped: 1 });
    expect(h.k8s.cluster.pods(K8S_NODE).map((p) => p.name)).toEqual(['node-exporter-x1']);
    await expectCleanEnd(h, migration);
  });

  it('puts the Consul node in maintenance with a reason that names the migration', async () => {
    const h = await fixture.start();
    const migration = h.migration();
    await h.run(migration);
    await expectCleanEnd(h, migration);
    const enable = h.agent.requests.find((r) => r.method === 'PUT' && r.path.includes('enable=true'));
    expect(decodeURIComponent(enable?.path ?? '')).toContain('placid migration mig-0001');
  });

  it('migrates a VM that is neither a Kubernetes node nor a Consul agent', async () => {
    const h = await fixture.start();
    // No node names the VM, the catalog lists nothing at its address.
    h.k8s.cluster.node(K8S_NODE)!.providerID = 'openstack:///another-vm';
    h.catalog.nodes.length = 0;
    const migration = h.migration({ kubernetes_node: null, consul: null });
    const run = await h.run(migration);
    const writes = h.k8s.requests.filter((r) => r.method !== 'GET');
    expect([run.status, writes.length, h.agent.requests.length]).toEqual(['SUCCEEDED', 0, 0]);
    await expectCleanEnd(h, migration);
  });
});

describe('Nova faults', () => {
  it('retries os-migrateLive after Nova 5xx and starts exactly one migration', async () => {
    const h = await fixture.start();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 503, times: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'LiveMigrate')]).toEqual(['SUCCEEDED', 3]);
    await expectCleanEnd(h, migration);
    expect(migrationsTo(h)).toHaveLength(1);
  });

  it('rolls back when Nova keeps failing with 5xx', async () => {
    const h = await fixture.start();
    h.nova.setFault('getServer', { kind: 'status', status: 500 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'NovaUnavailableError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', error: 'NovaUnavailableError' });
    await expectCleanEnd(h, migration);
  });

  it('waits out a 409 from a busy server', async () => {
    const h = await fixture.start();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 409, times: 1 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'LiveMigrate')]).toEqual(['SUCCEEDED', 2]);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when Nova keeps answering 409, leaving the VM on the source', async () => {
    const h = await fixture.start();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 409, message: 'instance is locked' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'ServerBusyError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    expect((await recordOf(h, migration)).cause).toContain('instance is locked');
    await expectCleanEnd(h, migration);
  });

  it('adopts the migration a timed-out os-migrateLive had started instead of starting another', async () => {
    const h = await fixture.start({ novaTimeoutMs: 1_000 });
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
    const h = await fixture.start();
    h.nova.updateServer(VM, { migration: { outcome: 'error' } });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'LiveMigrationFailedError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'failed', final_host: SOURCE });
    await expectCleanEnd(h, migration);
  });

  it("aborts a migration that never completes at Placid's deadline", async () => {
    const h = await fixture.start();
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
    const h = await fixture.start({ settings: { on_deadline: 'force-complete' } });
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
    const h = await fixture.start();
    h.k8s.cluster.addPod({
      name: 'db-0',
      node: K8S_NODE,
      controller: 'StatefulSet',
      blockEvictions: 'forever',
    });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'DrainBlockedError']);
    expect(h.k8s.cluster.pod('default', 'db-0')).toBeDefined();
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('evicts a pod once its PodDisruptionBudget allows it', async () => {
    const h = await fixture.start();
    h.k8s.cluster.addPod({ name: 'db-0', node: K8S_NODE, controller: 'StatefulSet', blockEvictions: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, h.k8s.cluster.pod('default', 'db-0')]).toEqual(['SUCCEEDED', undefined]);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when the Consul agent stays unreachable', async () => {
    const h = await fixture.start();
    h.agent.injectFault({ kind: 'unreachable', path: '/v1/agent/maintenance', times: 'forever' });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'ConsulUnavailableError']);
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('retries a Consul agent that is briefly unreachable', async () => {
    const h = await fixture.start();
    h.agent.injectFault({ kind: 'unreachable', path: '/v1/agent/maintenance', times: 2 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'Drain')]).toEqual(['SUCCEEDED', 3]);
    await expectCleanEnd(h, migration);
  });
});

describe('leases', () => {
  it('defers a migration whose VM is held by another execution, starting nothing', async () => {
    const h = await fixture.start();
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
    const h = await fixture.start();
    await h.store.acquireLease(hostSlots(DEST, h.deps.settings)[0], 'mig-other', 3_600_000);
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, count(run.steps, 'AcquireLeases')]).toEqual(['SUCCEEDED', 11]);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error: 'LeaseBusyError' });
    await expectCleanEnd(h, migration);
  });

  it('starts as soon as the busy slot is given back', async () => {
    const h = await fixture.start();
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
    const h = await fixture.start();
    h.nova.setFault('liveMigrate', { kind: 'status', status: 500, afterEffect: true, times: 1 });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.live?.adopted]).toEqual(['SUCCEEDED', true]);
    await expectCleanEnd(h, migration);
    expect(migrationsTo(h)).toHaveLength(1);
  });

  it('carries on draining after a cordon whose answer was lost, and still uncordons', async () => {
    const h = await fixture.start();
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
    const h = await fixture.start();
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
    const h = await fixture.start();
    h.nova.moveServer(VM, 'cmp-3');
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.output?.failure?.Error]).toEqual(['SUCCEEDED', 'VmMovedError']);
    expect(await recordOf(h, migration)).toMatchObject({ status: 'deferred', error: 'VmMovedError' });
    expect(migrationsTo(h)).toHaveLength(0);
    await expectCleanEnd(h, migration);
  });

  it('rolls back when the VM moves while its node is drained', async () => {
    const h = await fixture.start();
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
    [
      'the server is shut off',
      'ServerNotMigratableError',
      (x: Harness) => x.nova.updateServer(VM, { status: 'SHUTOFF', vmState: 'stopped' }),
      {},
    ],
  ])('defers when %s', async (_why, error, arrange, settings) => {
    const h = await fixture.start({ settings });
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
    const h = await fixture.start();
    const migration = h.migration({ dest_host: SOURCE });
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'InvalidMigrationInputError']);
    expect(run.cause).toContain('dest_host');
    expect(await heldLeases(h, migration)).toEqual([]);
  });
});

describe('placid migrate', () => {
  it('migrates one VM through the workflow with simulated drivers and records it', async () => {
    const dir = await storeWithVm(VM);
    const run = await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir]);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(
      new RegExp(`^migrated: ${VM} cmp1 -> cmp2 in \\d+(\\.\\d)? s \\(simulated time\\), 22\\.0 GiB`),
    );
  });

  it('takes the leases, re-checks and gives them back on --dry-run', async () => {
    const dir = await storeWithVm(VM);
    const dry = await runCli([
      'migrate',
      '--instance',
      VM,
      '--to',
      'cmp2',
      '--data-dir',
      dir,
      '--dry-run',
      '--json',
    ]);
    const again = await runCli(['migrate', '--instance', VM, '--to', 'cmp2', '--data-dir', dir, '--dry-run']);
    expect([dry.status, JSON.parse(dry.stdout).ok, again.status]).toEqual([0, true, 0]);
  });

  it('refuses a destination the store does not know before the dry run starts (exit 2)', async () => {
    const dir = await storeWithVm(VM);
    const run = await runCli(['migrate', '--instance', VM, '--to', 'cmp9', '--data-dir', dir, '--dry-run']);
    expect([run.status, run.stderr]).toEqual([
      2,
      expect.stringContaining('destination cmp9 is not a compute host'),
    ]);
  });

  it('reports a failed, rolled-back migration with exit status 4', async () => {
    const dir = await storeWithVm(VM);
    const run = await runCli([
      'migrate',
      '--instance',
      VM,
      '--to',
      'cmp2',
      '--data-dir',
      dir,
      '--failure-rate',
      '1',
    ]);
    expect([run.status, run.stdout]).toEqual([4, expect.stringMatching(/^failed: .*NovaUnavailableError/)]);
  });

  it('refuses an instance the store has no report of', async () => {
    const dir = await storeWithVm(VM);
    const run = await runCli(['migrate', '--instance', 'no-such-vm', '--to', 'cmp2', '--data-dir', dir]);
    expect([run.status, run.stderr]).toEqual([2, expect.stringContaining('no-such-vm has no report')]);
  });
});
