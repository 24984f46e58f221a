/** Report documents and a dynalite-backed store for the store tests. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { parseReportMessage, type ReportMessage } from '../../lib/model/reports.js';
import type { StoreOptions } from '../../lib/store/context.js';
import { createTables } from '../../lib/store/createTables.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { tableNames } from '../../lib/store/tables.js';

export const NOW = new Date('2026-12-01T12:00:00Z');

/** An ISO timestamp `minutes` after NOW (negative: before). */
export function at(minutes: number): string {
  return new Date(NOW.getTime() + minutes * 60_000).toISOString();
}

type Doc = Record<string, unknown>;

/** A raw hypervisor report as an agent would send it: 16 vCPUs, 32 GiB, 500 GB, nothing used. */
export function hypervisorDoc(overrides: Doc = {}): Doc {
  return {
    host: 'cmp1',
    nodename: 'cmp1',
    availability_zone: 'az1',
    reported_at: at(-1),
    vcpus_total: 16,
    vcpus_used: 0,
    total_usable_ram_mb: 32_768,
    free_ram_mb: 32_768,
    total_usable_disk_gb: 500,
    free_disk_mb: 500 * 1024,
    samples: [{ ts: at(-1), steal_percent: 3.5, cpu_percent: 40, load5: 2.1, migration_net_mbps: 0 }],
    ...overrides,
  };
}

/** A raw instance report on cmp1. */
export function instanceDoc(overrides: Doc = {}): Doc {
  return {
    uuid: 'a0000000-0000-4000-8000-000000000001',
    name: 'web-1',
    host: 'cmp1',
    nodename: 'cmp1',
    availability_zone: 'az1',
    role: 'web',
    flavor: { name: 'm1.small', vcpus: 1, memory_mb: 2048, root_gb: 20, ephemeral_gb: 0, swap: 0 },
    shared_storage: false,
    server_group: { name: 'web', policy: 'anti-affinity' },
    kubernetes_node: 'k8s-web-1',
    consul: { node: 'web-1', address: '10.0.0.11' },
    last_migrated_at: null,
    reported_at: at(-1),
    samples: [{ ts: at(-1), steal_percent: 12, load5: 4.5, cpu_percent: 80 }],
    ...overrides,
  };
}

export function messageDoc(hypervisors: Doc[] = [], instances: Doc[] = []): Doc {
  return { schema_version: 1, hypervisors, instances };
}

/** A validated message, as the ingest stage would hand it to the store. */
export function message(hypervisors: Doc[] = [], instances: Doc[] = []): ReportMessage {
  return parseReportMessage(JSON.stringify(messageDoc(hypervisors, instances)), NOW, 'test');
}

export interface StoreHarness {
  local: LocalDynamo;
  store: FleetStore;
  /** Moves the store's clock. */
  setNow(date: Date): void;
}

/** One in-memory dynalite and a store on it whose clock starts at NOW and never sleeps. */
export async function startStore(options: Partial<StoreOptions> = {}): Promise<StoreHarness> {
  const local = await startLocalDynamo();
  let now = NOW;
  const store = new FleetStore({
    doc: local.client,
    tables: local.tableNames,
    clock: { now: () => now.getTime() },
    retry: { sleep: async () => {} },
    ...options,
  });
  return { local, store, setNow: (d) => (now = d) };
}

/**
 * Registers the hooks a store-backed test file needs: one dynalite for the file (started before its
 * first test, closed after its last) and the clock back at NOW before each test. The harness's
 * fields are there once the file's tests run.
 */
export function useStore(options: Partial<StoreOptions> = {}): StoreHarness {
  const h = {} as StoreHarness;
  beforeAll(async () => {
    Object.assign(h, await startStore(options));
  });
  afterAll(async () => {
    await h.local?.close();
  });
  beforeEach(() => {
    h.setNow(NOW);
  });
  return h;
}

let tableSets = 0;

/** A second store on the harness's dynalite with tables of its own, for tests that read whole tables. */
export async function storeWithOwnTables(
  h: StoreHarness,
  options: Partial<StoreOptions> = {},
): Promise<FleetStore> {
  const tables = tableNames(`t${++tableSets}-`);
  await createTables(h.local.dynamo, tables);
  return new FleetStore({
    ...h.store.ctx,
    retry: h.store.ctx.retry,
    ...options,
    doc: h.local.client,
    tables,
  });
}
