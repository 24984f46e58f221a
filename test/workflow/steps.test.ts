import { describe, expect, it } from 'vitest';
import { dispatchAgentStep } from '../../lib/workflow/agentSteps.js';
import { dispatchCloudStep } from '../../lib/workflow/cloudSteps.js';
import { hostSlots, vmLease } from '../../lib/workflow/leaseNames.js';
import { causeText } from '../../lib/workflow/outcome.js';
import { maintenanceReason, reasonMark } from '../../lib/workflow/reasons.js';
import { leaseTtlMs } from '../../lib/workflow/settings.js';
import type { WorkflowState } from '../../lib/workflow/state.js';
import { acquireLeases } from '../../lib/workflow/steps/acquireLeases.js';
import { checkPlan } from '../../lib/workflow/steps/checkPlan.js';
import { onDeadline } from '../../lib/workflow/steps/deadline.js';
import { drain } from '../../lib/workflow/steps/drain.js';
import { liveMigrate } from '../../lib/workflow/steps/liveMigrate.js';
import { pollMigration } from '../../lib/workflow/steps/pollMigration.js';
import { recheck } from '../../lib/workflow/steps/recheck.js';
import { recordRollback } from '../../lib/workflow/steps/recordRollback.js';
import { renewLeases } from '../../lib/workflow/steps/renewLeases.js';
import { rollback } from '../../lib/workflow/steps/rollback.js';
import { undrain } from '../../lib/workflow/steps/undrain.js';
import { verify } from '../../lib/workflow/steps/verify.js';
import { migration, stepFixture, VM } from './memory.js';

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

/** Runs acquire, the plan check, recheck, drain and liveMigrate, as the state machine would. */
async function upToLiveMigrate(f: ReturnType<typeof stepFixture>): Promise<WorkflowState> {
  let state = f.state();
  state = { ...state, leases: await acquireLeases(state, f.deps) };
  state = { ...state, plan_check: await checkPlan(state, f.deps) };
  state = { ...state, recheck: await recheck(state, f.deps) };
  state = { ...state, drain: await drain(state, f.deps) };
  return { ...state, live: await liveMigrate(state, f.deps) };
}

describe('acquireLeases', () => {
  it('takes the VM, both host slots and a budget slot, all owned by the migration id', async () => {
    const f = stepFixture();
    const grant = await acquireLeases(f.state(), f.deps);
    expect(grant.names).toEqual([
      vmLease(VM),
      'migration/host/cmp-1/0',
      'migration/host/cmp-2/0',
      'migration/budget/0',
    ]);
    expect(f.leases.ownedBy('mig-1')).toEqual(grant.names);
  });

  it('gives back what it took when a later slot is busy', async () => {
    const f = stepFixture();
    await f.leases.acquireLease(hostSlots('cmp-2', f.deps.settings)[0], 'mig-other', 60_000);
    const error = await caught(acquireLeases(f.state(), f.deps));
    expect([error.name, f.leases.ownedBy('mig-1')]).toEqual(['LeaseBusyError', []]);
  });

  it('takes the next free slot when a host allows several migrations', async () => {
    const f = stepFixture({ settings: { max_migrations_per_host: 2 } });
    await f.leases.acquireLease('migration/host/cmp-2/0', 'mig-other', 60_000);
    const grant = await acquireLeases(f.state(), f.deps);
    expect(grant.names).toContain('migration/host/cmp-2/1');
  });

  it('renews its own leases when retried after a partial effect', async () => {
    const f = stepFixture();
    const first = await acquireLeases(f.state(), f.deps);
    const again = await acquireLeases(f.state(), f.deps);
    expect(again.names).toEqual(first.names);
  });

  it('refuses invalid input with the permanent InvalidMigrationInputError', async () => {
    const f = stepFixture();
    const error = await caught(
      acquireLeases(f.state({ migration: migration({ estimated_seconds: -1 }) }), f.deps),
    );
    expect([error.name, error.message]).toEqual([
      'InvalidMigrationInputError',
      expect.stringContaining('estimated_seconds'),
    ]);
  });
});

describe('recheck', () => {
  it('notes a node an operator had cordoned and maintenance someone else enabled', async () => {
    const f = stepFixture();
    f.fleet.nodes.get('node-1')!.cordoned = true;
    f.fleet.maintenance.set('vm-1', 'kernel upgrade');
    const result = await recheck(f.state(), f.deps);
    expect(result.pre).toEqual({ cordoned: true, maintenance_reason: 'kernel upgrade' });
  });

  it('reports the VM as busy when Nova shows a task on it', async () => {
    const f = stepFixture();
    f.fleet.servers.get(VM)!.taskState = 'resize_prep';
    const error = await caught(recheck(f.state(), f.deps));
    expect([error.name, error.message]).toEqual([
      'ServerNotMigratableError',
      expect.stringContaining('resize_prep'),
    ]);
  });
});

describe('liveMigrate and pollMigration', () => {
  it('sets the deadline from the estimate times the factor, never under the minimum', async () => {
    const f = stepFixture({ settings: { deadline_factor: 4, min_deadline_seconds: 60 } });
    const state = await upToLiveMigrate(f);
    expect(Date.parse(state.live!.deadline_at) - Date.parse(state.live!.requested_at)).toBe(120_000);
  });

  it('adopts the migration an earlier attempt started instead of starting another', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    const again = await liveMigrate({ ...state, live: undefined }, f.deps);
    expect([again.adopted, again.nova_migration_id, f.fleet.migrations.get(VM)?.length]).toEqual([
      true,
      state.live!.nova_migration_id,
      1,
    ]);
  });

  it('reports progress while running and completion with the bytes Nova moved', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    f.clock.advance(1_000);
    const running = await pollMigration(state, f.deps);
    f.clock.advance(3_600_000);
    const done = await pollMigration({ ...state, poll: running }, f.deps);
    expect(running).toMatchObject({ phase: 'running', polls: 1 });
    expect(running.progress_percent).toBeGreaterThan(0);
    expect(done).toMatchObject({ phase: 'completed', polls: 2, total_bytes: 4 * 2 ** 30 });
  });
});

describe('lease renewal while polling', () => {
  it('says renewal is due once half the lease time is used up, and the AWS step renews them', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    const ttl = leaseTtlMs(state.migration.estimated_seconds, f.deps.settings);
    f.clock.advance(ttl * 0.6);
    const polledAt = f.clock.now();
    const poll = await pollMigration(state, f.deps);
    expect(poll.renew_due).toBe(true);
    const renewal = await renewLeases({ ...state, poll }, f.deps);
    const next = await pollMigration({ ...state, poll, renewal }, f.deps);
    expect([next.leases_until, next.renew_due]).toEqual([renewal.leases_until, false]);
    f.clock.advance(ttl * 0.6);
    expect(Date.parse(renewal.leases_until)).toBe(polledAt + ttl);
    expect(f.leases.ownedBy('mig-1')).toHaveLength(4);
  });

  it('leaves fresh leases alone', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    const poll = await pollMigration(state, f.deps);
    expect([poll.leases_until, poll.renew_due]).toEqual([state.leases!.expires_at, false]);
  });
});

describe('onDeadline', () => {
  it('fails, rather than waiting forever, when Nova never listed the migration', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    f.fleet.migrations.delete(VM);
    const error = await caught(onDeadline(state, f.deps));
    expect([error.name, error.message]).toEqual([
      'MigrationDeadlineError',
      expect.stringContaining('no migration'),
    ]);
  });

  it('force-completes once and extends the deadline by the grace period', async () => {
    const f = stepFixture({ settings: { on_deadline: 'force-complete', force_complete_grace_seconds: 60 } });
    const state = await upToLiveMigrate(f);
    const live = await onDeadline(state, f.deps);
    expect([live.forced_at, Date.parse(live.deadline_at) - f.clock.now()]).toEqual([
      new Date(f.clock.now()).toISOString(),
      60_000,
    ]);
    expect(f.fleet.migrations.get(VM)?.[0].forced).toBe(true);
  });

  it('aborts after a force-complete that did not finish in its grace period', async () => {
    const f = stepFixture({ settings: { on_deadline: 'force-complete' } });
    const state = await upToLiveMigrate(f);
    const forced = { ...state.live!, forced_at: new Date(f.clock.now()).toISOString() };
    const error = await caught(onDeadline({ ...state, live: forced }, f.deps));
    expect([error.name, f.fleet.migrations.get(VM)?.[0].status]).toEqual([
      'MigrationDeadlineError',
      'cancelled',
    ]);
  });
});

describe('undrain', () => {
  it('leaves a node cordoned before Placid came cordoned, and foreign maintenance on', async () => {
    const f = stepFixture();
    f.fleet.nodes.get('node-1')!.cordoned = true;
    f.fleet.maintenance.set('vm-1', 'kernel upgrade');
    const state = await upToLiveMigrate(f);
    const result = await undrain(state, f.deps);
    expect(result).toEqual({ kubernetes: 'left-cordoned', consul: 'left-enabled' });
    expect([f.fleet.nodes.get('node-1')!.cordoned, f.fleet.maintenance.get('vm-1')]).toEqual([
      true,
      'kernel upgrade',
    ]);
  });

  it('is idempotent: a second undrain finds everything already back', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    await undrain(state, f.deps);
    expect(await undrain(state, f.deps)).toEqual({
      kubernetes: 'already-schedulable',
      consul: 'already-disabled',
    });
  });
});

/** The agent's cleanup, then the AWS-side record, as the state machine chains them. */
async function rolledBack(f: ReturnType<typeof stepFixture>, state: WorkflowState) {
  const cleanup = await rollback(state, f.deps);
  return recordRollback({ ...state, cleanup }, f.deps);
}

describe('rollback', () => {
  it('aborts our running migration, undrains, releases and records the failure with its cause', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    const failure = {
      Error: 'DrainBlockedError',
      Cause: JSON.stringify({ errorType: 'DrainBlockedError', errorMessage: 'db-0 blocked' }),
    };
    const result = await rolledBack(f, { ...state, failure });
    expect(result).toMatchObject({ status: 'failed', final_host: 'cmp-1' });
    expect(f.fleet.migrations.get(VM)?.[0].status).toBe('cancelled');
    expect(f.recorder.records.get('mig-1')).toMatchObject({
      status: 'failed',
      error: 'DrainBlockedError',
      cause: 'db-0 blocked',
    });
    expect([
      f.fleet.nodes.get('node-1')!.cordoned,
      f.fleet.maintenance.get('vm-1'),
      f.leases.ownedBy('mig-1'),
    ]).toEqual([false, null, []]);
  });

  it('asks to be retried when the node cannot be undrained, and touches no lease or record', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    f.fleet.maintenance.delete('vm-1'); // the agent no longer answers
    const error = await caught(rollback({ ...state, failure: { Error: 'X', Cause: 'x' } }, f.deps));
    expect([error.name, error.message]).toEqual([
      'CleanupIncompleteError',
      expect.stringContaining('end maintenance'),
    ]);
    expect([f.leases.ownedBy('mig-1').length, f.recorder.records.has('mig-1')]).toEqual([4, false]);
  });

  it('records why the cleanup gave up and keeps the leases', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    const gaveUp = {
      Error: 'CleanupIncompleteError',
      Cause: 'cleanup of migration mig-1: end maintenance: down',
    };
    const result = await recordRollback(
      { ...state, failure: { Error: 'X', Cause: 'x' }, cleanup_failure: gaveUp },
      f.deps,
    );
    expect(result.summary).toContain('leases kept');
    expect(f.leases.ownedBy('mig-1')).toHaveLength(4);
    expect(f.recorder.records.get('mig-1')?.cleanup_problems).toEqual([
      expect.stringContaining('end maintenance'),
    ]);
  });

  it('records a verified move as succeeded and starts its cooldown, even when cleanup failed after it', async () => {
    const f = stepFixture();
    const state = await upToLiveMigrate(f);
    f.clock.advance(3_600_000);
    const verified = { ...state, verify: await verify(state, f.deps) };
    const result = await rolledBack(f, {
      ...verified,
      failure: { Error: 'StoreUnavailableError', Cause: 'throttled' },
    });
    expect([result.status, result.final_host, f.recorder.migrated.get(VM)]).toEqual([
      'succeeded',
      'cmp-2',
      verified.verify.verified_at,
    ]);
  });

  it('does not touch a node it never drained', async () => {
    const f = stepFixture();
    f.fleet.nodes.get('node-1')!.cordoned = true;
    const result = await rolledBack(
      f,
      f.state({ failure: { Error: 'NovaUnavailableError', Cause: 'down' } }),
    );
    expect([result.status, f.fleet.nodes.get('node-1')!.cordoned]).toEqual(['failed', true]);
  });
});

describe('dispatching steps', () => {
  it('rejects a step it does not know with UnknownStepError', async () => {
    const f = stepFixture();
    const error = await caught(dispatchCloudStep({ step: 'teleport', state: f.state() }, f.deps));
    expect([error.name, error.message]).toEqual(['UnknownStepError', expect.stringContaining('teleport')]);
  });

  it('runs on-premises steps only on an agent and store steps only in AWS', async () => {
    const f = stepFixture();
    const onAgent = await caught(dispatchAgentStep({ step: 'acquireLeases', state: f.state() }, f.deps));
    const inAws = await caught(dispatchCloudStep({ step: 'drain', state: f.state() }, f.deps));
    expect([onAgent.name, inAws.name]).toEqual(['UnknownStepError', 'UnknownStepError']);
  });

  it('runs the named step on the given state', async () => {
    const f = stepFixture();
    const result = await dispatchCloudStep({ step: 'acquireLeases', state: f.state() }, f.deps);
    expect(result).toMatchObject({ owner: 'mig-1' });
  });
});

describe('texts left on other systems', () => {
  it('names the migration and the time in the maintenance reason, so it can be recognised later', () => {
    const at = new Date('2026-12-01T12:00:00Z');
    const reason = maintenanceReason(migration(), at);
    expect(reason).toBe(
      'placid migration mig-1 since 2026-12-01T12:00:00.000Z: live-migrating vm-1 from cmp-1 to cmp-2',
    );
    expect(reasonMark(reason)).toEqual({ migrationId: 'mig-1', since: at });
    expect(reasonMark('kernel upgrade (ops)')).toBeNull();
  });

  it.each([
    [
      'a Lambda error document',
      JSON.stringify({ errorType: 'X', errorMessage: 'the message' }),
      'the message',
    ],
    ['a plain message', 'the message', 'the message'],
  ])('reads the cause of %s', (_kind, cause, expected) => {
    expect(causeText({ Error: 'X', Cause: cause })).toBe(expected);
  });
});
