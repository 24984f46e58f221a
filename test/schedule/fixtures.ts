/** A dynalite-backed store with a small fleet, and the schedule stage's deps over it. */

import { beforeEach } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import { createScheduler } from '../../lib/engine/registry.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import type { ScheduleDeps } from '../../lib/schedule/core.js';
import { FleetSnapshot, type SnapshotOptions } from '../../lib/schedule/snapshot.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { makeConfig, makeSpec } from '../helpers/factories.js';
import {
  at,
  hypervisorDoc,
  message,
  messageDoc,
  NOW,
  type StoreHarness,
  storeWithOwnTables,
  useStore,
} from '../store/fixtures.js';

export { NOW, type StoreHarness, startStore, storeWithOwnTables } from '../store/fixtures.js';

/** One test file's store: `h` lives for the file, `store` is a fresh set of tables per test. */
export interface StoreFixture {
  h: StoreHarness;
  store: FleetStore;
}

/**
 * Registers the hooks every store-backed schedule test needs: one dynalite for the file, and before
 * each test the clock at NOW, fresh tables, and whatever `seed` stores. Read the fields inside tests.
 */
export function useStoreFixture(seed?: (store: FleetStore) => Promise<unknown>): StoreFixture {
  const fixture = { h: useStore() } as StoreFixture;
  beforeEach(async () => {
    fixture.store = await storeWithOwnTables(fixture.h);
    await seed?.(fixture.store);
  });
  return fixture;
}

/** ms after NOW. */
export const msAfterNow = (ms: number): Date => new Date(NOW.getTime() + ms);

/** RAM decides everything: the pre-filter, ComputeFilter and the RAM weigher (most free RAM wins). */
export function testConfig(): SchedulerConfig {
  return makeConfig({
    filter_scheduler: { enabled_filters: ['ComputeFilter'], weight_classes: ['RAMWeigher'] },
  });
}

/** A host with `ramMb` of RAM, all free (vCPUs and disk are plentiful). */
export function hostReport(host: string, ramMb: number, reportedAt = at(-1)) {
  return message([
    hypervisorDoc({
      host,
      nodename: host,
      reported_at: reportedAt,
      total_usable_ram_mb: ramMb,
      free_ram_mb: ramMb,
      samples: [],
    }),
  ]).hypervisors[0];
}

/**
 * A host with `ramMb` of RAM reported at the wall clock's now: for code that judges liveness
 * (service_down_time) against the real clock, such as the CLI and the Lambda handlers.
 */
export function liveHostReport(host: string, ramMb: number) {
  const doc = hypervisorDoc({
    host,
    nodename: host,
    reported_at: new Date().toISOString(),
    total_usable_ram_mb: ramMb,
    free_ram_mb: ramMb,
    samples: [],
  });
  return parseReportMessage(JSON.stringify(messageDoc([doc])), new Date(), 'test').hypervisors[0];
}

/** Stores hosts `prefix0..n-1` with `ramMb` each, all reported a minute before NOW. */
export async function putHosts(
  store: FleetStore,
  n: number,
  ramMb: number,
  prefix = 'cmp',
): Promise<string[]> {
  const names = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  await Promise.all(names.map((name) => store.putHostReport(hostReport(name, ramMb))));
  return names;
}

/** One Lambda's worth of deps: its own snapshot over the shared store. */
export function depsFor(
  store: FleetStore,
  config: SchedulerConfig = testConfig(),
  snapshot: SnapshotOptions = {},
): ScheduleDeps {
  return { store, scheduler: createScheduler(config), snapshot: new FleetSnapshot(store, snapshot) };
}

/** A request for one 2 GiB instance. */
export function request(id: string, overrides: Parameters<typeof makeSpec>[0] = {}) {
  return makeSpec({ request_id: id, flavor: { name: 'm1.medium', vcpus: 1, memory_mb: 2048 }, ...overrides });
}

/** RAM claimed on a host right now (reported usage plus pending claims). */
export async function usedRam(h: StoreHarness | { store: FleetStore }, host: string): Promise<number> {
  const stored = await h.store.getHost(host);
  if (!stored) throw new Error(`no host ${host}`);
  return stored.state.total_usable_ram_mb - stored.state.free_ram_mb;
}
