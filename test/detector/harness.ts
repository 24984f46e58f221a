/**
 * A detector on real parts: a generated fleet written into dynalite through the store, a local
 * plan queue, a clock the test moves, and the workflow's own record writes to finish migrations.
 */

import { type FleetShape, generateFleet } from '../../bench/generateFleet.js';
import { defaultConfig } from '../../lib/config/options.js';
import type { DetectorDeps } from '../../lib/detector/index.js';
import { newestReportAt } from '../../lib/ingest/batchWrites.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import type { MigrationInput, MigrationOutcomeStatus } from '../../lib/model/migration.js';
import type { RebalanceMode } from '../../lib/rebalance/options.js';
import { defaultRebalanceSettings, type RebalanceSettings } from '../../lib/rebalance/settings.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import type { MigrationOutcome } from '../../lib/workflow/ports.js';
import { markMigrationRunning, putMigrationRecord } from '../../lib/workflow/records.js';
import { type StoreHarness, startStore, storeWithOwnTables } from '../store/fixtures.js';

export type { StoreHarness } from '../store/fixtures.js';
/** One dynalite per test file (beforeAll); each harness gets tables of its own on it. */
export const startDynamo = (): Promise<StoreHarness> => startStore();

/** 6 hosts, 60 VMs: a plan of four waves (2, 2, 1, 1 migrations; one per host at a time). */
export const SHAPE: FleetShape = { hosts: 6, vms: 60, seed: 4, contendedShare: 0.4 };

export type Harness = Awaited<ReturnType<typeof openHarness>>;

export async function openHarness(
  dynamo: StoreHarness,
  mode: RebalanceMode,
  overrides: Partial<RebalanceSettings> = {},
  shape: FleetShape = SHAPE,
) {
  const fleet = generateFleet(shape);
  let now = fleet.now;
  const store = await storeWithOwnTables(dynamo, { clock: { now: () => now.getTime() } });
  await ingested(store, fleet);
  const queue = new LocalSqsQueue({ name: 'plans' });
  const settings: RebalanceSettings = { ...defaultRebalanceSettings(), mode, ...overrides };
  const deps: DetectorDeps = {
    store,
    planQueue: queue,
    settings,
    config: defaultConfig(),
    clock: { now: () => now.getTime() },
  };
  return {
    fleet,
    store,
    queue,
    deps,
    now: () => now,
    advance(minutes: number) {
      now = new Date(now.getTime() + minutes * 60_000);
    },
    /** The same fleet reported again at the current time (fresh samples). */
    async report(change: (f: ReturnType<typeof generateFleet>) => void = () => {}) {
      const again = generateFleet({ ...shape, now });
      change(again);
      await ingested(store, again);
      return again;
    },
    sentMessages(): MigrationInput[] {
      return queue.messages().map((m) => JSON.parse(m.body) as MigrationInput);
    },
    /** What the workflow writes for these migrations: running, the outcome, and a success's last-migrated time. */
    async finish(messages: readonly MigrationInput[], status: MigrationOutcomeStatus = 'succeeded') {
      for (const m of messages) {
        await markMigrationRunning(store, m, now.toISOString(), 30);
        await putMigrationRecord(store, outcome(m, now, status), 30);
        if (status === 'succeeded') await store.markMigrated(m.instance_uuid, now.toISOString());
      }
    },
  };
}

/** What the ingest stage leaves for a message: its states and pages, and the ingest watermark. */
async function ingested(store: FleetStore, fleet: ReturnType<typeof generateFleet>): Promise<void> {
  await store.putReports(fleet);
  await store.noteIngested(newestReportAt(fleet));
}

function outcome(migration: MigrationInput, now: Date, status: MigrationOutcomeStatus): MigrationOutcome {
  return {
    migration,
    started_at: new Date(now.getTime() - 60_000).toISOString(),
    finished_at: now.toISOString(),
    status,
    duration_seconds: 60,
    migration_seconds: status === 'succeeded' ? 40 : null,
    bytes: migration.estimated_bytes,
    steal_before_percent: 20,
    final_host: status === 'succeeded' ? migration.dest_host : migration.source_host,
    nova_migration_id: 7,
    error: null,
    cause: null,
    cleanup_problems: [],
  };
}
