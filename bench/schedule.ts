/**
 * The schedule stage over a warm snapshot of 10k hosts in dynalite: decision latency for the engine
 * alone, with store claims, and end to end (replay check, refresh, engine, claim, record) with a
 * breakdown by phase; then the cost of an incremental snapshot refresh after 1 % of the hosts
 * changed, split into the store read, the Fleet rebuild (the engine index carried over) and the
 * first decision after it.
 */
import { defaultConfig, type SchedulerConfig } from '../lib/config/options.js';
import { Fleet } from '../lib/engine/fleet.js';
import { createScheduler } from '../lib/engine/registry.js';
import type { Scheduler } from '../lib/engine/scheduler.js';
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
/**
 * The liveness clock of the engine-level decisions: a minute after the reports, when every host is
 * up (a host counts as down service_down_time after its next report was due). The store's clock runs
 * further ahead to get past the change feed's overlap; a live fleet would have kept reporting.
 */
const REPORTS_FRESH = new Date(T0 + 60_000);

const report = (state: HostState, reportedAt: number): HypervisorReport => ({
  host: state.host,
  nodename: state.nodename,
  availability_zone: state.aggregates[0]?.metadata.availability_zone ?? 'nova',
  reported_at: new Date(reportedAt).toISOString(),
  state,
  samples: [],
});

const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0);
const log = (line: string) => process.stdout.write(`schedule: ${line}\n`);
const spec = (id: string) =>
  parseRequestSpec({ request_id: id, flavor: { name: 'm1.small', vcpus: 1, memory_mb: 1024, root_gb: 10 } });
/** A decision that found no host is a broken bench (a stale fleet decides in no time), not a figure. */
const placed = <D extends { error?: { message: string } | null }>(d: D): D => {
  if (d.error) throw new Error(`bench decision placed nothing: ${d.error.message}`);
  return d;
};

interface Bench {
  store: FleetStore;
  snapshot: FleetSnapshot;
  scheduler: Scheduler;
  config: SchedulerConfig;
  hosts: HostState[];
  tick(ms: number): void;
  nextId(prefix: string): string;
}

export async function benchSchedule(): Promise<Record<string, unknown>> {
  const local = await startLocalDynamo();
  let now = T0;
  let ids = 0;
  const store = new FleetStore({ doc: local.client, tables: local.tableNames, clock: { now: () => now } });
  try {
    const hosts = generateHosts(HOSTS);
    const started = performance.now();
    const items = hosts.map((h) => ({
      host: h.host,
      nodename: h.nodename,
      ...reportAttributes(report(h, T0), reportedUsage(h), now),
      claims: {},
      version: 1,
    }));
    await batchPut(local.client, TABLES.hosts, local.tableNames.hosts, items, { concurrency: 8 });
    log(`stored ${HOSTS} hosts in ${round(performance.now() - started)} ms`);

    now += 60_000;
    // The periodic full listing is timed as the cold load; keep it out of the incremental figures.
    const snapshot = new FleetSnapshot(store, { fullRefreshMs: 3_600_000 });
    const load = await snapshot.refresh();
    const coldLoad = { read_ms: round(load.readMs), rebuild_ms: round(load.rebuildMs) };
    log(`cold load (full listing): ${JSON.stringify(coldLoad)}`);

    const config = defaultConfig();
    config.filter_scheduler.weight_classes = ['nova.scheduler.weights.all_weighers'];
    const b: Bench = {
      store,
      snapshot,
      scheduler: createScheduler(config),
      config,
      hosts,
      tick: (ms) => {
        now += ms;
      },
      nextId: (prefix) => `${prefix}-${ids++}`,
    };
    const decisions = await warmDecisions(b);
    const endToEnd = await endToEndDecisions(b);
    const refresh = await incrementalRefresh(b);
    const fleetFrom = await time(() => Fleet.from(snapshot.fleet.hosts.slice()), 5, 1);
    log(`Fleet.from over ${HOSTS} already-interned hosts: p50 ${fleetFrom.p50_us} µs`);
    return {
      hosts: HOSTS,
      cold_load: coldLoad,
      ...decisions,
      decision_end_to_end: endToEnd,
      incremental_refresh_1pct: refresh,
      fleet_from_10k_interned: fleetFrom,
    };
  } finally {
    await local.close();
  }
}

/** Decisions over the warm, unchanging snapshot: engine only, engine explained, engine + claims. */
async function warmDecisions(b: Bench) {
  const engineOnly = await time(
    async () =>
      placed(await b.scheduler.schedule(b.snapshot.fleet, spec(b.nextId('e')), { now: REPORTS_FRESH })),
    30,
  );
  const explained = await time(
    async () => {
      const d = await b.scheduler.schedule(b.snapshot.fleet, spec(b.nextId('x')), {
        explain: true,
        now: REPORTS_FRESH,
      });
      recordedDecisionJson(placed(d), 1);
    },
    10,
    2,
  );
  let conflicts = 0;
  const withClaim = await time(async () => {
    const tracked = storeClaim(b.store, b.config);
    placed(
      await b.scheduler.schedule(b.snapshot.fleet, spec(b.nextId('c')), {
        claim: tracked.claim,
        now: REPORTS_FRESH,
      }),
    );
    conflicts += tracked.conflicts();
  }, 20);
  log(
    `engine p50 ${engineOnly.p50_us} µs; explained ${explained.p50_us} µs; with claim ${withClaim.p50_us} µs`,
  );
  return {
    decision_engine_only: engineOnly,
    decision_engine_explained_and_capped: explained,
    decision_engine_with_claim: { ...withClaim, claim_conflicts: conflicts },
  };
}

/**
 * scheduleRequest as the stage runs it, explained. Each request's refresh sees the previous one's
 * claim, so each rebuilds the Fleet. Store calls and the engine are timed through thin wrappers.
 */
async function endToEndDecisions(b: Bench) {
  const spent: Record<string, number[]> = {};
  // CPU ms per phase and request: dynalite runs in this process, so a store call's CPU includes the
  // store's own work, and the engine's CPU beyond its claims is its window's minus theirs.
  const cpu: Record<string, number[]> = {};
  const timed = <A extends unknown[], R>(phase: string, fn: (...args: A) => Promise<R>) => {
    return async (...args: A): Promise<R> => {
      const t = performance.now();
      const c = process.cpuUsage();
      try {
        return await fn(...args);
      } finally {
        const used = process.cpuUsage(c);
        spent[phase] ??= [];
        spent[phase].push(performance.now() - t);
        cpu[phase] ??= [];
        cpu[phase].push((used.user + used.system) / 1000);
      }
    };
  };
  const store = Object.assign(Object.create(b.store) as FleetStore, {
    getDecision: timed('replay_check', (id: string) => b.store.getDecision(id)),
    putDecision: timed('record', (id: string, d: unknown) => b.store.putDecision(id, d)),
    claimResources: timed('claims', b.store.claimResources.bind(b.store)),
  });
  const scheduler = Object.assign(Object.create(b.scheduler) as Scheduler, {
    schedule: timed('engine_with_claims', b.scheduler.schedule.bind(b.scheduler)),
  });
  const refresh: { read: number[]; rebuild: number[] } = { read: [], rebuild: [] };
  const engineCpu: number[] = [];
  const timing = await time(
    async () => {
      b.tick(1_000);
      const claimsBefore = cpu.claims?.length ?? 0;
      const outcome = await scheduleRequest(spec(b.nextId('r')), { store, snapshot: b.snapshot, scheduler });
      if (outcome.decision.error) throw new Error(outcome.decision.error.message);
      const claimsCpu = (cpu.claims ?? []).slice(claimsBefore).reduce((a, x) => a + x, 0);
      engineCpu.push(cpu.engine_with_claims.at(-1)! - claimsCpu);
      refresh.read.push(outcome.refresh?.readMs ?? 0);
      refresh.rebuild.push(outcome.refresh?.rebuildMs ?? 0);
    },
    20,
    2,
  );
  const phases = {
    replay_check_ms: median(spent.replay_check),
    refresh_read_ms: median(refresh.read),
    fleet_rebuild_ms: median(refresh.rebuild),
    engine_explained_with_claims_ms: median(spent.engine_with_claims),
    engine_cpu_beyond_claims_ms: median(engineCpu),
    claims_ms: median(spent.claims),
    record_ms: median(spent.record),
  };
  log(`end to end p50 ${timing.p50_us} µs; median phases ${JSON.stringify(phases)}`);
  return { ...timing, median_phases: phases };
}

/** Changes 1 % of hosts (newer reports, less free RAM), refreshes, and times each part. Median of 5. */
async function incrementalRefresh(b: Bench) {
  const decide = async () => {
    const t = performance.now();
    placed(await b.scheduler.schedule(b.snapshot.fleet, spec(b.nextId('f')), { now: REPORTS_FRESH }));
    return performance.now() - t;
  };
  const runs = {
    total: [] as number[],
    read: [] as number[],
    rebuild: [] as number[],
    first: [] as number[],
  };
  const warm: number[] = [];
  const quiet: number[] = [];
  b.tick(1_000);
  await b.snapshot.refresh(); // take in the claims made so far, so each round reads only its own changes
  for (let round_ = 0; round_ < 5; round_++) {
    b.tick(60_000); // past the change feed's overlap, so only the new writes are read back
    const changed = b.hosts.slice(round_ * CHANGED, (round_ + 1) * CHANGED);
    await Promise.all(
      changed.map((h) =>
        b.store.putHostReport(
          report({ ...h, free_ram_mb: h.free_ram_mb - 1024 * (round_ + 1) }, T0 + 1_000 * (round_ + 1)),
        ),
      ),
    );
    b.tick(1_000);
    const t = performance.now();
    const stats = await b.snapshot.refresh();
    runs.total.push(performance.now() - t);
    if (stats.changed !== CHANGED) throw new Error(`expected ${CHANGED} changed hosts, saw ${stats.changed}`);
    runs.read.push(stats.readMs);
    runs.rebuild.push(stats.rebuildMs);
    runs.first.push(await decide());
    warm.push(await decide());
    b.tick(60_000);
    const t2 = performance.now();
    await b.snapshot.refresh();
    quiet.push(performance.now() - t2);
  }
  const out = {
    changed_hosts: CHANGED,
    refresh_total_ms: median(runs.total),
    store_read_ms: median(runs.read),
    fleet_rebuild_ms: median(runs.rebuild),
    first_decision_after_ms: median(runs.first),
    warm_decision_ms: median(warm),
    refresh_with_nothing_changed_ms: median(quiet),
  };
  log(`incremental refresh after ${CHANGED} changed: ${JSON.stringify(out)}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('schedule', await benchSchedule());
}
