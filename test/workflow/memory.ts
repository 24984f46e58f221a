/** In-memory stand-ins for the step cores' store ports, and simulated drivers on a manual clock. */

import { SimulatedFleet, type SimulatedFleetOptions } from '../../lib/drivers/simulated/fleet.js';
import { simulatedDrivers } from '../../lib/drivers/simulated/index.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { MigrationInput } from '../../lib/model/migration.js';
import type { LeaseStore, MigrationOutcome, MigrationRecorder, StepDeps } from '../../lib/workflow/ports.js';
import { parseWorkflowSettings, type WorkflowSettingsInput } from '../../lib/workflow/settings.js';
import type { WorkflowState } from '../../lib/workflow/state.js';

export const START = Date.UTC(2026, 11, 1, 12);
export const VM = 'vm-1';

export class MemoryLeases implements LeaseStore {
  readonly held = new Map<string, { owner: string; until: number }>();
  constructor(private readonly clock: ManualClock) {}

  async acquireLease(name: string, owner: string, ttlMs: number) {
    const lease = this.held.get(name);
    if (lease && lease.owner !== owner && lease.until > this.clock.now()) return undefined;
    this.held.set(name, { owner, until: this.clock.now() + ttlMs });
    return { name };
  }

  async releaseLease(name: string, owner: string) {
    const lease = this.held.get(name);
    if (!lease || lease.owner !== owner || lease.until <= this.clock.now()) return false;
    this.held.delete(name);
    return true;
  }

  ownedBy(owner: string): string[] {
    return [...this.held].filter(([, l]) => l.owner === owner && l.until > this.clock.now()).map(([n]) => n);
  }
}

export class MemoryRecorder implements MigrationRecorder {
  readonly records = new Map<string, MigrationOutcome>();
  readonly migrated = new Map<string, string>();
  async record(outcome: MigrationOutcome) {
    this.records.set(outcome.migration.migration_id, outcome);
  }
  async markMigrated(uuid: string, at: string) {
    this.migrated.set(uuid, at);
  }
}

export interface StepFixture {
  clock: ManualClock;
  fleet: SimulatedFleet;
  leases: MemoryLeases;
  recorder: MemoryRecorder;
  deps: StepDeps;
  state(overrides?: Partial<WorkflowState>): WorkflowState;
}

export function migration(overrides: Partial<MigrationInput> = {}): MigrationInput {
  return {
    migration_id: 'mig-1',
    plan_id: 'plan-1',
    plan_expires_at: new Date(START + 30 * 60_000).toISOString(),
    instance_uuid: VM,
    source_host: 'cmp-1',
    dest_host: 'cmp-2',
    estimated_bytes: 2 ** 32,
    estimated_seconds: 30,
    kubernetes_node: 'node-1',
    consul: { node: 'vm-1', address: '10.0.0.1' },
    correlation_id: 'corr-1',
    ...overrides,
  };
}

/** A simulated fleet with VM on cmp-1 (4 GiB, shared storage), its Kubernetes node and its Consul agent. */
export function stepFixture(
  options: { settings?: WorkflowSettingsInput; fleet?: Partial<SimulatedFleetOptions> } = {},
): StepFixture {
  const clock = new ManualClock(START);
  const fleet = new SimulatedFleet({ clock, ...options.fleet });
  fleet.addServer({
    uuid: VM,
    host: 'cmp-1',
    flavor: { memory_mb: 4096, root_gb: 20 },
    shared_storage: true,
  });
  // Both run on VM: the simulated cluster and catalog name it, as an agent's lookup needs.
  fleet.addNode('node-1', [{ name: 'app-0' }, { name: 'exporter', daemonSet: true }], VM);
  fleet.addConsulAgent('vm-1', VM);
  const leases = new MemoryLeases(clock);
  const recorder = new MemoryRecorder();
  const deps: StepDeps = {
    settings: parseWorkflowSettings(options.settings ?? {}),
    clock,
    leases,
    records: recorder,
    placement: { check: async () => ({ passes: true, reason: 'fits' }) },
    ...simulatedDrivers(fleet),
  };
  return {
    clock,
    fleet,
    leases,
    recorder,
    deps,
    state: (overrides = {}) => ({
      migration: migration(),
      execution_started_at: new Date(START).toISOString(),
      ...overrides,
    }),
  };
}
