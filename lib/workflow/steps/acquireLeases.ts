/**
 * Step 1: take the VM's lease, a slot on each host and a budget slot. A VM held by another
 * execution defers this migration (it would be a second one of the same VM); busy slots are a
 * retryable LeaseBusyError, which the state machine retries with backoff before deferring. What was
 * taken before a conflict is given back, so a waiting migration holds nothing.
 */
import { LeaseBusyError, VmLeaseHeldError } from '../errors.js';
import { requireMigrationInput } from '../input.js';
import { budgetSlots, hostSlots, vmLease } from '../leaseNames.js';
import type { CloudStepDeps, LeaseStore } from '../ports.js';
import { leaseTtlMs } from '../settings.js';
import type { LeaseGrant, WorkflowState } from '../state.js';
import { guarded } from '../translate.js';

export async function acquireLeases(state: WorkflowState, deps: CloudStepDeps): Promise<LeaseGrant> {
  const migration = requireMigrationInput(state.migration);
  const owner = migration.migration_id;
  const ttlMs = leaseTtlMs(migration.estimated_seconds, deps.settings);
  const now = new Date(deps.clock.now());
  const taken: string[] = [];
  const take = (name: string) =>
    guarded(`acquire lease ${name}`, () => deps.leases.acquireLease(name, owner, ttlMs));
  try {
    const vm = vmLease(migration.instance_uuid);
    if (!(await take(vm))) {
      throw new VmLeaseHeldError(
        `VM ${migration.instance_uuid} is locked by another migration (lease ${vm}); not starting a second one`,
      );
    }
    taken.push(vm);
    const groups: Array<[string, string[]]> = [
      [`source host ${migration.source_host}`, hostSlots(migration.source_host, deps.settings)],
      [`destination host ${migration.dest_host}`, hostSlots(migration.dest_host, deps.settings)],
      ['the fleet-wide migration budget', budgetSlots(deps.settings)],
    ];
    for (const [what, slots] of groups) {
      const slot = await firstFree(slots, take);
      if (!slot) {
        throw new LeaseBusyError(
          `${what} has no free migration slot (all ${slots.length} held by other migrations)`,
        );
      }
      taken.push(slot);
    }
    // The record leaves `queued` only once the migration holds what it needs to run.
    await guarded('record the migration as running', async () =>
      deps.records.markRunning?.(migration, state.execution_started_at),
    );
  } catch (error) {
    await releaseQuietly(deps.leases, taken, owner);
    throw error;
  }
  return {
    owner,
    names: taken,
    acquired_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMs).toISOString(),
  };
}

async function firstFree(
  slots: string[],
  take: (name: string) => Promise<unknown>,
): Promise<string | undefined> {
  for (const slot of slots) if (await take(slot)) return slot;
  return undefined;
}

/** Best effort: a lease that cannot be released now expires by itself. */
async function releaseQuietly(leases: LeaseStore, names: string[], owner: string): Promise<void> {
  await Promise.allSettled(names.map((name) => leases.releaseLease(name, owner)));
}
