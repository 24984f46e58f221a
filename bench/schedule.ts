/**
 * The schedule stage over a warm snapshot of 10k hosts in dynalite: decision latency for the engine
 * alone, with store claims, and end to end (record, refresh, engine, claim, decision); then the cost
 * of an incremental snapshot refresh after 1 % of the hosts changed, split into the store read, the
 * Fleet rebuild, and the engine's lazy re-index on the first decision after it.
 */
import { defaultConfig } from '../lib/config/options.js';
import { Fleet } from '../lib/engine/fleet.js';
import { createScheduler } from '../lib/engine/registry.js';
import { startLocalDynamo } from '../lib/local/dynalite.js';
import type { HostState } from '../lib/model/hostState.js';
import type { HypervisorReport } from '../lib/model/reports.js';
import { parseRequestSpec } from '../lib/model/requestSchema.js';
import { storeClaim } from '../lib/schedule/claims.js';
import { scheduleRequest } from '../lib/schedule/core.js';
import { recordedDecisionJson } from '../lib/schedule/record.js';
import { FleetSnapshot } from '../lib/schedule/snapshot.js';
import { batchPut } from '../lib/store/batchWriter.js';
import { FleetStore } from '../lib/store/fleetStore.js';
import { reportAttributes, reportedUsage } from '../lib/store/hostItems.js';
import { TABLES } from '../lib/store/tables.js';
import { generateHosts } from './placement.js';
import { round, time, writeSection } from './stats.js';

const HOSTS = 10_000;
const CHANGED = HOSTS / 100;
const T0 = Date.UTC(2026, 11, 1, 12);

const report = (state: HostState, reportedAt: number): HypervisorReport => ({
  host: state.host,
  nodename: state.nodename,
  availability_zone: state.aggregates[0]?.metadata.availability_zone ?? 'nova',
  reported_at: new Date(reportedAt).toISOString(),
  state,
  samples: [],
});

const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const log = (line: string) => process.stdout.write(`schedule: ${line}\n`);

export async function benchSchedule(): Promise<Record<string, unknown>> {
  const local = await startLocalDynamo();
  let now = T0;
  const store = new FleetStore({ doc: local.client, tables: local.tableNames, clock: () => new Date(now) });
  const tick = (ms: number) => {
    now += ms;
  };
  try {
    const hosts = generateHosts(HOSTS);
    let started = performance.now();
    const items = hosts.map((h) => ({
      host: h.host,
      nodename: h.nodename,
      ...reportAttributes(report(h, T0 - 60_000), reportedUsage(h), now),
      claims: {},
      version: 1,
    }));
    await batchPut(local.client, TABLES.hosts, local.tableNames.hosts, items, { concurrency: 8 });
    log(`stored ${HOSTS} hosts in ${round(performance.now() - started)} ms`);

    tick(60_000);
    // The periodic full listing is timed as the cold load; keep it out of the incremental figures.
    const snapshot = new FleetSnapshot(store, { fullRefreshMs: 3_600_000 });
    started = performance.now();
    const load = await snapshot.refresh();
    const coldLoad = {
      total_ms: round(performance.now() - started),
      read_ms: round(load.readMs),
      rebuild_ms: round(load.rebuildMs),
    };
    log(`cold load (full listing): ${coldLoad.total_ms} ms`);

    const config = defaultConfig();
    config.filter_scheduler.weight_classes = ['nova.scheduler.weights.all_weighers'];
    const scheduler = createScheduler(config);
    const spec = (id: string) =>
      parseRequestSpec({
        request_id: id,
        flavor: { name: 'm1.small', vcpus: 1, memory_mb: 1024, root_gb: 10 },
      });
    let n = 0;

    const engineOnly = await time(() => scheduler.schedule(snapshot.fleet, spec(`e-${n++}`)), 30);
    const engineExplained = await time(
      async () => {
        const s = spec(`x-${n++}`);
        recordedDecisionJson(await scheduler.schedule(snapshot.fleet, s, { explain: true }), 1);
      },
      10,
      2,
    );
    let conflicts = 0;
    const withClaim = await time(async () => {
      const s = spec(`c-${n++}`);
      const tracked = storeClaim(store, config);
      const d = await scheduler.schedule(snapshot.fleet, s, { claim: tracked.claim });
      if (d.error) throw new Error(d.error.message);
      conflicts += tracked.conflicts();
    }, 20);
    log(
      `engine p50 ${engineOnly.p50_us} µs; explained ${engineExplained.p50_us} µs; with claim ${withClaim.p50_us} µs`,
    );

    // End to end: each request's refresh sees the previous request's claim, so each one rebuilds.
    const reads: number[] = [];
    const rebuilds: number[] = [];
    const endToEnd = await time(
      async () => {
        tick(1_000);
        const outcome = await scheduleRequest(spec(`r-${n++}`), { store, snapshot, scheduler });
        if (outcome.decision.error) throw new Error(outcome.decision.error.message);
        reads.push(outcome.refresh?.readMs ?? 0);
        rebuilds.push(outcome.refresh?.rebuildMs ?? 0);
      },
      8,
      1,
    );
    const phases = { refresh_read_ms_median: median(reads), fleet_rebuild_ms_median: median(rebuilds) };
    log(`end to end p50 ${endToEnd.p50_us} µs (${JSON.stringify(phases)})`);

    const refresh = await incrementalRefresh(store, snapshot, hosts, tick, async () => {
      const t = performance.now();
      await scheduler.schedule(snapshot.fleet, spec(`f-${n++}`));
      return performance.now() - t;
    });
    log(`refresh after ${CHANGED} changed: ${JSON.stringify(refresh)}`);

    started = performance.now();
    const fleetFrom = await time(() => Fleet.from(snapshot.fleet.hosts.slice()), 5, 1);
    log(
      `Fleet.from over ${HOSTS} interned hosts p50 ${fleetFrom.p50_us} µs (${round(performance.now() - started)} ms)`,
    );

    return {
      hosts: HOSTS,
      cold_load: coldLoad,
      decision_engine_only: engineOnly,
      decision_engine_explained_and_capped: engineExplained,
      decision_engine_with_claim: { ...withClaim, claim_conflicts: conflicts },
      decision_end_to_end: { ...endToEnd, ...phases },
      incremental_refresh_1pct: refresh,
      fleet_from_10k: fleetFrom,
    };
  } finally {
    await local.close();
  }
}

/** Changes 1 % of hosts (newer reports, less free RAM), refreshes, and times each part. Median of 5. */
async function incrementalRefresh(
  store: FleetStore,
  snapshot: FleetSnapshot,
  hosts: HostState[],
  tick: (ms: number) => void,
  firstDecisionMs: () => Promise<number>,
) {
  const runs = {
    total: [] as number[],
    read: [] as number[],
    rebuild: [] as number[],
    first: [] as number[],
    warm: [] as number[],
  };
  let quiet = 0;
  tick(1_000);
  await snapshot.refresh(); // take in the claims made so far, so each round reads only its own changes
  for (let round_ = 0; round_ < 5; round_++) {
    tick(60_000); // past the change feed's overlap, so only the new writes are read back
    const changed = hosts.slice(round_ * CHANGED, (round_ + 1) * CHANGED);
    await Promise.all(
      changed.map((h) =>
        store.putHostReport(
          report({ ...h, free_ram_mb: h.free_ram_mb - 1024 * (round_ + 1) }, Date.now() + round_),
        ),
      ),
    );
    tick(1_000);
    const t = performance.now();
    const stats = await snapshot.refresh();
    runs.total.push(performance.now() - t);
    if (stats.changed !== CHANGED) throw new Error(`expected ${CHANGED} changed hosts, saw ${stats.changed}`);
    runs.read.push(stats.readMs);
    runs.rebuild.push(stats.rebuildMs);
    runs.first.push(await firstDecisionMs());
    runs.warm.push(await firstDecisionMs());
    tick(60_000);
    const t2 = performance.now();
    await snapshot.refresh();
    quiet = performance.now() - t2;
  }
  return {
    changed_hosts: CHANGED,
    total_ms: median(runs.total),
    store_read_ms: median(runs.read),
    fleet_rebuild_ms: median(runs.rebuild),
    first_decision_after_ms: median(runs.first),
    warm_decision_ms: median(runs.warm),
    nothing_changed_refresh_ms: round(quiet),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('schedule', await benchSchedule());
}
