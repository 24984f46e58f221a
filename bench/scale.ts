/**
 * Placid at fleet scale (issue 17, the measurement part): 1,000 hypervisors with 20 VMs each (and
 * 10,000 when `SCALE_HOSTS` asks for it), through dynalite in a child process, with the real
 * handlers' code paths:
 * - `ingest_minute`: one fleet-minute (one message per hypervisor, its VMs inside, one sample each)
 *   through lib/ingest's ingestBatch in SQS batches of 10, after a first minute that created every
 *   state (measured too, as `ingest_first_minute`);
 * - `snapshot`: the schedule stage's FleetSnapshot, a full load after the first minute and an
 *   incremental refresh after the measured one;
 * - `detector_planning` / `detector_idle`: lib/detector's reconcile over a generated fleet
 *   (bench/generateFleet.ts: a 10-minute sample window, 10 % of hosts contended) stored as ingest
 *   stores it (a page per host and minute, window digests per batch of 10 hosts; seeded by
 *   bench/seedWindow.ts, which writes ingest's own items, many at once), first a run that
 *   detects and plans from the digests, then a minute later one with no new report;
 *   `detector_window_read` is its digest read alone, and `detector_planning_full_read` the same
 *   detection reading one window per node (the reference; up to SCALE_FULL_READ_MAX_HOSTS).
 * DynamoDB requests, items and consumed capacity are counted by a client middleware, which also
 * asks for `ReturnConsumedCapacity: 'TOTAL'` (the store does not) so dynalite reports units.
 * CPU is this process's (the Lambda's share) and dynalite's (DynamoDB's) apart.
 */
import { readFileSync } from 'node:fs';
import { defaultConfig } from '../lib/config/options.js';
import { sampleWindow } from '../lib/detector/fleetRead.js';
import { reconcile } from '../lib/detector/index.js';
import type { DetectorDeps, ReconcileResult } from '../lib/detector/types.js';
import { KnownHosts } from '../lib/ingest/knownHosts.js';
import { openLocalStore } from '../lib/local/localStore.js';
import { LocalSqsQueue } from '../lib/local/sqsQueue.js';
import { parseReportMessage } from '../lib/model/reports.js';
import { defaultRebalanceSettings } from '../lib/rebalance/settings.js';
import { FleetSnapshot, type RefreshStats } from '../lib/schedule/snapshot.js';
import type { FleetStore } from '../lib/store/fleetStore.js';
import { markDigestsWritten } from '../lib/store/windowCoverage.js';
import { digestWrites } from '../lib/store/windowDigest.js';
import { childCpuMs, type DynaliteProcess, ownCpuMs, withDynalite } from './dynaliteProcess.js';
import { countDynamo, type DynamoCounts } from './dynamoCounter.js';
import { warmIngestBatch } from './fleetMinute.js';
import { hypervisorReport, instanceReport, reportTimes, type VmShape } from './fleetReports.js';
import { liveHeap } from './gc.js';
import { generateFleet } from './generateFleet.js';
import { warmContainerHeap } from './ingestMemory.js';
import { itemBytes } from './itemBytes.js';
import { benchDetectorOffline } from './scaleOffline.js';
import { seedWindow } from './seedWindow.js';
import { mib, round, writeSection } from './stats.js';

const VMS_PER_HOST = 20;
/** The full-read reference detection is measured up to this size (SCALE_FULL_READ_MAX_HOSTS). */
const FULL_READ_MAX_HOSTS = Number(process.env.SCALE_FULL_READ_MAX_HOSTS ?? 1000);
/** `SCALE_PARTS=detector` measures the detector alone (ingest and snapshot keep their last figures). */
const PARTS = (process.env.SCALE_PARTS ?? 'ingest,detector').split(',');
const MINUTE = 60_000;
const BASE = Date.parse('2026-12-01T12:00:00Z');
/** Messages per ingest invocation: the stack's default `ingestBatchSize`. */
const SQS_BATCH = 10;
const log = (line: string) => process.stdout.write(`scale: ${line}\n`);

const VM_SHAPE: VmShape = {
  flavor: { name: 'm1.medium', vcpus: 2, memory_mb: 4096, root_gb: 40 },
  serverGroups: 50,
  load5: 1.5,
};

/** One message per hypervisor at `minute`: the node and its VMs, one sample each. */
function fleetMinuteBodies(hosts: number, minute: number): string[] {
  const t = reportTimes(BASE, minute);
  return Array.from({ length: hosts }, (_, h) => {
    const hypervisor = hypervisorReport(h, `cmp-${String(h).padStart(5, '0')}`, t);
    const instances = Array.from({ length: VMS_PER_HOST }, (_, k) =>
      instanceReport(h * VMS_PER_HOST + k, hypervisor, `10.${(h >> 8) & 255}.${h & 255}.${k}`, VM_SHAPE, t),
    );
    return JSON.stringify({ schema_version: 1, hypervisors: [hypervisor], instances });
  });
}

interface Measured<T> {
  value: T;
  wall_s: number;
  /** This process: what the Lambda would spend. */
  lambda_cpu_ms: number;
  /** dynalite's process: DynamoDB's side, not billed as Lambda time. */
  dynalite_cpu_ms: number;
  /** Highest heap used and RSS seen while it ran (sampled every 20 ms). */
  peak_heap_mib: number;
  peak_rss_mib: number;
  /** Live heap (after a full collection) and RSS when it started: the peaks less these are its own. */
  live_heap_before_mib?: number;
  rss_before_mib?: number;
  dynamo: DynamoCounts;
}

async function measure<T>(
  dynalite: DynaliteProcess,
  counter: { reset(): void; snapshot(): DynamoCounts },
  run: () => Promise<T>,
  baseline = false,
): Promise<Measured<T>> {
  counter.reset();
  const before = baseline
    ? { live_heap_before_mib: mib(liveHeap()), rss_before_mib: mib(process.memoryUsage().rss) }
    : {};
  let heap = process.memoryUsage().heapUsed;
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  }, 20);
  const [t0, cpu0, child0] = [process.hrtime.bigint(), ownCpuMs(), childCpuMs(dynalite.child)];
  try {
    const value = await run();
    const m = process.memoryUsage();
    return {
      value,
      wall_s: round(Number(process.hrtime.bigint() - t0) / 1e9, 2),
      lambda_cpu_ms: Math.round(ownCpuMs() - cpu0),
      dynalite_cpu_ms: Math.round(childCpuMs(dynalite.child) - child0),
      peak_heap_mib: mib(Math.max(heap, m.heapUsed)),
      peak_rss_mib: mib(Math.max(rss, m.rss)),
      ...before,
      dynamo: counter.snapshot(),
    };
  } finally {
    clearInterval(sampler);
  }
}

const strip = <T>({ value: _v, ...rest }: Measured<T>) => rest;

/** ingestBatch as a warm ingest Lambda runs it: known hosts cached across invocations. */
function ingestLambda(store: FleetStore, now: () => Date) {
  const ingest = warmIngestBatch('scale');
  const knownHosts = KnownHosts.inStore(store);
  return async (bodies: string[]): Promise<number> => {
    let invocations = 0;
    for (let b = 0; b < bodies.length; b += SQS_BATCH) {
      await ingest(store, knownHosts, bodies.slice(b, b + SQS_BATCH), now());
      invocations++;
    }
    return invocations;
  };
}

/**
 * What one fleet-minute's bodies must store as samples (their pages, by DynamoDB's item size),
 * and the window digests written beside them, in KiB: write units are judged against the pages.
 */
function storedKib(store: FleetStore, bodies: readonly string[], now: Date) {
  let pages = 0;
  let digests = 0;
  for (let b = 0; b < bodies.length; b += SQS_BATCH) {
    const batch = bodies
      .slice(b, b + SQS_BATCH)
      .flatMap((body) => store.samplePages(parseReportMessage(body, now, 'scale bench')));
    for (const p of batch) pages += itemBytes(p.item as unknown as Record<string, unknown>);
    for (const d of digestWrites(batch)) digests += itemBytes(d.item as unknown as Record<string, unknown>);
  }
  return { sample_pages_kib: round(pages / 1024, 1), window_digests_kib: round(digests / 1024, 1) };
}

const refreshStats = (s: RefreshStats) => ({
  kind: s.kind,
  read: s.read,
  changed: s.changed,
  hosts: s.hosts,
});

async function benchIngestAndSnapshot(hosts: number) {
  return withDynalite(async (dynalite) => {
    let now = new Date(BASE);
    const local = await openLocalStore({
      endpoint: dynalite.endpoint,
      store: { clock: { now: () => now.getTime() } },
    });
    try {
      const counter = countDynamo(local.store.ctx.doc);
      const ingest = ingestLambda(local.store, () => now);
      const snapshot = new FleetSnapshot(local.store, { fullRefreshMs: 3_600_000 });
      const minute = async (m: number) => {
        now = new Date(BASE + m * MINUTE + 5_000);
        const bodies = fleetMinuteBodies(hosts, m);
        return {
          stored: storedKib(local.store, bodies, now),
          ...(await measure(dynalite, counter, () => ingest(bodies))),
        };
      };
      const first = await minute(0);
      const full = await measure(dynalite, counter, () => snapshot.refresh());
      const second = await minute(1);
      const incremental = await measure(dynalite, counter, () => snapshot.refresh());
      log(`${hosts} hosts: warm ingest container memory`);
      const memory = warmContainerHeap(fleetMinuteBodies(hosts, 1), now);
      return {
        ingest_warm_container: memory,
        ingest_first_minute: { invocations: first.value, ...strip(first) },
        ingest_minute: {
          invocations: second.value,
          ...strip(second),
          wcu_per_kib_of_samples: round(second.dynamo.wcu / second.stored.sample_pages_kib, 2),
        },
        snapshot_full_load: { ...refreshStats(full.value), ...strip(full) },
        snapshot_incremental_refresh: { ...refreshStats(incremental.value), ...strip(incremental) },
      };
    } finally {
      await local.close();
    }
  });
}

const summary = (r: ReconcileResult) => ({
  idle: r.idle ?? null,
  suffering: r.suffering ?? null,
  planned_migrations: r.plan?.migrations.length ?? r.considered?.migrations.length ?? 0,
});

/** Requests in flight while seeding (dynalite, in its own process, takes them one at a time). */
const SEED_CONCURRENCY = 8;

/**
 * The generated fleet, stored as ingest leaves it (bench/seedWindow.ts); returns only its shape,
 * so the fleet itself is garbage before the detector runs are measured.
 */
async function seedFleet(store: FleetStore, hosts: number) {
  const fleet = generateFleet({ hosts, vms: hosts * VMS_PER_HOST, zones: 3, seed: 17, contendedShare: 0.1 });
  await seedWindow(store, fleet, new Date(fleet.now.getTime() + 5_000), {
    batchHosts: SQS_BATCH,
    concurrency: SEED_CONCURRENCY,
  });
  return {
    now: fleet.now,
    shape: {
      hosts,
      vms: fleet.instances.length,
      samples_per_vm_window: fleet.instances[0]?.samples.length ?? 0,
      contended_share: 0.1,
    },
  };
}

async function benchDetector(hosts: number, withFullRead: boolean) {
  return withDynalite(async (dynalite) => {
    // Ingest has written window digests since an hour before (the detector trusts them from then).
    const fleetNow = generatedNow();
    let now = new Date(fleetNow.getTime() - 3_600_000);
    const local = await openLocalStore({
      endpoint: dynalite.endpoint,
      store: { clock: { now: () => now.getTime() } },
    });
    try {
      const counter = countDynamo(local.store.ctx.doc);
      await markDigestsWritten(local.store.ctx);
      now = fleetNow;
      // Setup, counted apart.
      const seed = await measure(dynalite, counter, () => seedFleet(local.store, hosts));
      log(`${hosts} hosts: seeded ${JSON.stringify({ ...strip(seed), dynamo: seed.dynamo.requests })}`);
      const deps = (fullRead: boolean): DetectorDeps => ({
        store: local.store,
        planQueue: new LocalSqsQueue({ name: 'plans' }),
        settings: { ...defaultRebalanceSettings(), mode: 'recommend' },
        config: defaultConfig(),
        clock: { now: () => now.getTime() },
        fullRead,
      });
      const windows = await measure(
        dynalite,
        counter,
        () => {
          const { from, to } = sampleWindow(now, deps(false).settings);
          return local.store.fleetWindows(from, to);
        },
        true,
      );
      const planning = await measure(dynalite, counter, () => reconcile(deps(false)), true);
      now = new Date(now.getTime() + MINUTE);
      const idle = await measure(dynalite, counter, () => reconcile(deps(false)), true);
      // The reference: the same detection reading one window per node (a new minute, so it detects again).
      let full: Awaited<ReturnType<typeof measure<ReconcileResult>>> | undefined;
      if (withFullRead) {
        await local.store.noteIngested(new Date(now.getTime() + 1).toISOString());
        full = await measure(dynalite, counter, () => reconcile(deps(true)), true);
      }
      return {
        fleet: seed.value.shape,
        window_seed: strip(seed),
        detector_window_read: { ...windows.value.stats, ...strip(windows) },
        detector_planning: { ...summary(planning.value), ...strip(planning) },
        detector_idle: { ...summary(idle.value), ...strip(idle) },
        ...(full
          ? { detector_planning_full_read: { ...summary(full.value), ...strip(full) } }
          : { detector_planning_full_read: 'not measured at this size (one Query per node)' }),
      };
    } finally {
      await local.close();
    }
  });
}

/** The generated fleet's clock (generateFleet's default `now`), known before the fleet is built. */
const generatedNow = (): Date => generateFleet({ hosts: 1, vms: 1, zones: 1, seed: 17 }).now;

async function benchHosts(hosts: number, withDetector: boolean) {
  if (!PARTS.includes('ingest')) {
    log(`${hosts} hosts: detector`);
    return benchDetector(hosts, hosts <= FULL_READ_MAX_HOSTS);
  }
  log(`${hosts} hosts: ingest + snapshot`);
  const ingest = await benchIngestAndSnapshot(hosts);
  log(`${hosts} hosts: ${JSON.stringify(ingest.ingest_minute)}`);
  if (!withDetector) {
    const skipped =
      'not measured: SCALE_DETECTOR_MAX_HOSTS is lower (seeding the window takes too long here)';
    // Merged over an earlier run's figures, which may include the detector's.
    return { vms_per_host: VMS_PER_HOST, ...ingest, detector_skipped_in_last_run: skipped };
  }
  log(`${hosts} hosts: detector`);
  const detector = await benchDetector(hosts, hosts <= FULL_READ_MAX_HOSTS);
  log(`${hosts} hosts: planning ${JSON.stringify(detector.detector_planning)}`);
  log(`${hosts} hosts: idle ${JSON.stringify(detector.detector_idle)}`);
  return { vms_per_host: VMS_PER_HOST, ...ingest, ...detector };
}

/**
 * `SCALE_HOSTS=1000,10000 npm run bench scale`; 1,000 by default (10,000 takes long on 2 shared
 * cores). `SCALE_OFFLINE_HOSTS=10000` adds the detector's work past reading at that size, in
 * memory (`SCALE_HOSTS= SCALE_OFFLINE_HOSTS=10000` for that alone; give Node a 4 GB heap). The detector runs only up to `SCALE_DETECTOR_MAX_HOSTS` hosts (default: every size).
 * Sizes not run keep their figures from the last run that measured them.
 */
export async function benchScale(): Promise<Record<string, unknown>> {
  const sizes = (process.env.SCALE_HOSTS ?? '1000')
    .split(',')
    .map((s) => Number.parseInt(s, 10))
    .filter(Number.isFinite);
  // The detector's Lambda-side work past reading, in memory (bench/scaleOffline.ts).
  const offline = (process.env.SCALE_OFFLINE_HOSTS ?? '')
    .split(',')
    .map((s) => Number.parseInt(s, 10))
    .filter(Number.isFinite);
  const detectorMax = Number(process.env.SCALE_DETECTOR_MAX_HOSTS ?? Number.POSITIVE_INFINITY);
  const out: Record<string, unknown> = { ...previousScale() };
  for (const hosts of sizes) {
    // Merged: figures a run at this size did not measure (detector_offline) stay.
    const measured = await benchHosts(hosts, hosts <= detectorMax);
    out[`hosts_${hosts}`] = { ...((out[`hosts_${hosts}`] as object) ?? {}), ...measured };
  }
  for (const hosts of offline) {
    log(`${hosts} hosts: detector offline (merge, parse, detect, plan in memory)`);
    const measured = await benchDetectorOffline(hosts, VMS_PER_HOST);
    log(`${hosts} hosts: offline ${JSON.stringify(measured)}`);
    out[`hosts_${hosts}`] = { ...((out[`hosts_${hosts}`] as object) ?? {}), detector_offline: measured };
  }
  return out;
}

function previousScale(): Record<string, unknown> {
  try {
    const all = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8'));
    return (all.scale ?? {}) as Record<string, unknown>;
  } catch {
    return {}; // first run: no results yet
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('scale', await benchScale());
}
