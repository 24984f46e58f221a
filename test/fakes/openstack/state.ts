/**
 * The fake cloud's servers and live migrations, with Nova's lifecycle: a migration is `accepted`,
 * then `preparing`, `running` (memory and disk counters moving), and finally `completed` (the server
 * now on the destination), `error` (still on the source) or `cancelled` (aborted). It advances one
 * step per poll, or with the clock when a duration is set.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../lib/model/clock.js';
import { FakeInventoryState } from './inventoryState.js';
import { FAKE_ADMIN } from './keystone.js';

/** How a server's next migration ends: `stall` keeps running until forced or aborted. */
export type MigrationOutcome = 'completed' | 'error' | 'stall';

export interface MigrationPlan {
  outcome: MigrationOutcome;
  /** Polls (or duration slices) from `accepted` to the outcome. */
  steps: number;
  /** Polls a completing migration spends in `post-migrating` (memory copied, not yet done). Default 0. */
  postMigratingPolls?: number;
  /** Polls an aborted migration spends `cancelling` before it is `cancelled`: Nova aborts asynchronously. Default 1. */
  cancellingPolls?: number;
  /**
   * Polls before the migration's record exists: os-migrateLive only sets the server's task state,
   * and the conductor creates the record later (seconds on a busy cloud, seen on real Nova 26).
   * Default 0.
   */
  unrecordedPolls?: number;
}

export interface FakeServerInput {
  id: string;
  host: string;
  name?: string;
  status?: string;
  availabilityZone?: string;
  metadata?: Record<string, string>;
  memoryBytes?: number;
  diskBytes?: number;
  /** Overrides the fake's default plan for this server's migrations. */
  migration?: Partial<MigrationPlan>;
  /** The compute node, when the host has several. Default: the host. */
  nodename?: string;
  flavor?: Partial<FakeFlavor>;
  tags?: string[];
  /** IP addresses, listed on one network. */
  addresses?: string[];
  /** The owning project. Default: the admin's (FAKE_ADMIN). */
  projectId?: string;
  bootFromVolume?: boolean;
}

/** A server's embedded flavor, as servers/detail shows it from microversion 2.47. */
export interface FakeFlavor {
  name: string;
  vcpus: number;
  ram: number;
  disk: number;
  ephemeral: number;
  swap: number;
}

const DEFAULT_FAKE_FLAVOR: FakeFlavor = {
  name: 'm1.small',
  vcpus: 1,
  ram: 2048,
  disk: 20,
  ephemeral: 0,
  swap: 0,
};

export interface FakeServer {
  id: string;
  /** The owning project: a non-admin of another project gets 404 for it, as from Nova. */
  projectId: string;
  name: string;
  host: string;
  hypervisorHostname: string;
  status: string;
  vmState: string;
  taskState: string | null;
  availabilityZone: string;
  metadata: Record<string, string>;
  memoryBytes: number;
  diskBytes: number;
  migration?: Partial<MigrationPlan>;
  flavor: FakeFlavor;
  tags: string[];
  addresses: string[];
  bootFromVolume: boolean;
}

export interface FakeMigration {
  id: number;
  uuid: string;
  serverId: string;
  migrationType: 'live-migration';
  status: string;
  sourceCompute: string;
  destCompute: string;
  memoryTotalBytes: number;
  memoryProcessedBytes: number;
  diskTotalBytes: number;
  diskProcessedBytes: number;
  createdAtMs: number;
  updatedAtMs: number;
  step: number;
  plan: MigrationPlan;
  forceCompleted: boolean;
  /** Polls left in `cancelling` after an abort. */
  cancellingLeft?: number;
}

export const IN_PROGRESS = new Set(['queued', 'preparing', 'running', 'post-migrating']);
const FINISHED = new Set(['completed', 'error', 'cancelled', 'failed', 'done']);

export class FakeCloudState {
  readonly servers = new Map<string, FakeServer>();
  readonly migrations: FakeMigration[] = [];
  /** Migrations Nova accepted but has not recorded yet (`unrecordedPolls`). */
  private readonly unrecorded: { migration: FakeMigration; pollsLeft: number }[] = [];
  /** Compute nodes, aggregates, server groups and Placement data (the inventory routes). */
  readonly inventory = new FakeInventoryState();
  private nextMigrationId = 1;

  constructor(
    readonly clock: Clock,
    private readonly defaultPlan: MigrationPlan,
    /** When set, migrations move with the clock: `steps` slices of this duration. */
    private readonly durationMs?: number,
  ) {}

  addServer(input: FakeServerInput): FakeServer {
    const server: FakeServer = {
      id: input.id,
      projectId: input.projectId ?? FAKE_ADMIN.projectId,
      name: input.name ?? input.id,
      host: input.host,
      hypervisorHostname: input.nodename ?? input.host,
      status: input.status ?? 'ACTIVE',
      vmState: (input.status ?? 'ACTIVE').toLowerCase(),
      taskState: null,
      availabilityZone: input.availabilityZone ?? 'nova',
      metadata: { ...input.metadata },
      memoryBytes: input.memoryBytes ?? 4 * 2 ** 30,
      diskBytes: input.diskBytes ?? 20 * 2 ** 30,
      migration: input.migration,
      flavor: { ...DEFAULT_FAKE_FLAVOR, ...input.flavor },
      tags: [...(input.tags ?? [])],
      addresses: [...(input.addresses ?? [])],
      bootFromVolume: input.bootFromVolume ?? false,
    };
    this.servers.set(server.id, server);
    return server;
  }

  /** Starts a live migration (the API has already checked the server's state). */
  startMigration(server: FakeServer, destination: string): FakeMigration {
    const now = this.clock.now();
    const migration: FakeMigration = {
      id: this.nextMigrationId++,
      uuid: randomUUID(),
      serverId: server.id,
      migrationType: 'live-migration',
      status: 'accepted',
      sourceCompute: server.host,
      destCompute: destination,
      memoryTotalBytes: server.memoryBytes,
      memoryProcessedBytes: 0,
      diskTotalBytes: server.diskBytes,
      diskProcessedBytes: 0,
      createdAtMs: now,
      updatedAtMs: now,
      step: 0,
      plan: { ...this.defaultPlan, ...server.migration },
      forceCompleted: false,
    };
    // Nova's asynchronous pre-checks (>= 2.34) fail a migration to the host the server is on.
    if (destination === server.host) migration.plan = { outcome: 'error', steps: 1 };
    server.status = 'MIGRATING';
    server.taskState = 'migrating';
    const unrecorded = migration.plan.unrecordedPolls ?? 0;
    if (unrecorded > 0) this.unrecorded.push({ migration, pollsLeft: unrecorded });
    else this.migrations.push(migration);
    return migration;
  }

  /** Moves every unfinished migration of `serverId` on by one poll (or to where the clock says). */
  advance(serverId: string): void {
    for (const waiting of this.unrecorded.filter((u) => u.migration.serverId === serverId)) {
      if (--waiting.pollsLeft > 0) continue;
      this.unrecorded.splice(this.unrecorded.indexOf(waiting), 1);
      waiting.migration.createdAtMs = waiting.migration.updatedAtMs = this.clock.now();
      this.migrations.push(waiting.migration);
    }
    for (const migration of this.migrations) {
      if (migration.serverId !== serverId || FINISHED.has(migration.status)) continue;
      const slice = this.durationMs === undefined ? undefined : this.durationMs / migration.plan.steps;
      const step =
        slice === undefined
          ? migration.step + 1
          : Math.floor((this.clock.now() - migration.createdAtMs) / Math.max(slice, 1e-9));
      this.moveTo(migration, Math.max(migration.step, step));
    }
  }

  /** Ends a running migration the next time it advances (Nova pauses the guest to converge). */
  forceComplete(migration: FakeMigration): void {
    migration.forceCompleted = true;
  }

  /** Like Nova: the abort is accepted (202) and the migration is `cancelling` until the compute host stops it. */
  abort(migration: FakeMigration): void {
    migration.status = 'cancelling';
    migration.updatedAtMs = this.clock.now();
    migration.cancellingLeft = migration.plan.cancellingPolls ?? 1;
  }

  /** Someone else moved the server: it is on `host` now, with a completed migration on record. */
  moveServer(server: FakeServer, host: string): void {
    const migration = this.startMigration(server, host);
    migration.plan = { outcome: 'completed', steps: 1 };
    this.finish(migration, 'completed');
  }

  private moveTo(migration: FakeMigration, step: number): void {
    const { plan } = migration;
    if (migration.status === 'cancelling') {
      migration.cancellingLeft = (migration.cancellingLeft ?? 1) - 1;
      if (migration.cancellingLeft <= 0) this.finish(migration, 'cancelled');
      return;
    }
    migration.step = step;
    migration.updatedAtMs = this.clock.now();
    const post = plan.outcome === 'completed' ? (plan.postMigratingPolls ?? 0) : 0;
    if (step >= plan.steps && step < plan.steps + post) {
      migration.status = 'post-migrating';
      migration.memoryProcessedBytes = migration.memoryTotalBytes;
      migration.diskProcessedBytes = migration.diskTotalBytes;
      return;
    }
    const done = step >= plan.steps + post && plan.outcome !== 'stall';
    if (migration.forceCompleted && migration.status === 'running') {
      this.finish(migration, plan.outcome === 'error' ? 'error' : 'completed');
    } else if (done) {
      this.finish(migration, plan.outcome === 'error' ? 'error' : 'completed');
    } else if (step >= 1) {
      migration.status = step === 1 && plan.steps > 2 ? 'preparing' : 'running';
      // A stalled migration copies memory forever: the guest dirties pages as fast as they move.
      const fraction = plan.outcome === 'stall' ? 0.9 : Math.min(step / plan.steps, 1);
      migration.memoryProcessedBytes = Math.floor(migration.memoryTotalBytes * fraction);
      migration.diskProcessedBytes = Math.floor(migration.diskTotalBytes * Math.min(step / plan.steps, 1));
    }
  }

  private finish(migration: FakeMigration, status: 'completed' | 'error' | 'cancelled'): void {
    const server = this.servers.get(migration.serverId);
    migration.status = status;
    migration.updatedAtMs = this.clock.now();
    if (status === 'completed') {
      migration.memoryProcessedBytes = migration.memoryTotalBytes;
      migration.diskProcessedBytes = migration.diskTotalBytes;
    }
    if (!server) return;
    if (status === 'completed') {
      server.host = migration.destCompute;
      server.hypervisorHostname = migration.destCompute;
    }
    server.status = 'ACTIVE';
    server.vmState = 'active';
    server.taskState = null;
  }
}
