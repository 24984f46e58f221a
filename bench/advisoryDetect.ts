/**
 * `placid serve` answering advisory requests while its detector runs (issue: the detector on the
 * request thread). A fleet of ADVISORY_DETECT_HOSTS hypervisors (default 300, 20 VMs each, 10 %
 * contended, a 10-minute window as ingest writes it) is stored once and copied, then served twice:
 * with the detection run on the request thread, as `placid serve` did (detectRounds beside the
 * server), and with the serve detector's worker thread (lib/cli/serveDetector.ts). Requests are
 * sent one after another from this process for as long as the first detection runs; their latency
 * is wall time (a busy machine inflates it: compare the two lines, not absolute numbers), the CPU
 * figures are this process's (process.cpuUsage, every thread).
 */
import { cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServeExtension, startServe } from '../lib/cli/serve.js';
import { serveDetector } from '../lib/cli/serveDetector.js';
import { openLocalStore } from '../lib/local/localStore.js';
import { systemClock } from '../lib/model/clock.js';
import { markDigestsWritten } from '../lib/store/windowCoverage.js';
import { askAdvisory } from './advisory.js';
import { generateFleet } from './generateFleet.js';
import { seedWindow } from './seedWindow.js';
import { percentile, round } from './stats.js';

const HOSTS = Number(process.env.ADVISORY_DETECT_HOSTS ?? 300);
const CANDIDATES = 100;
const log = (line: string) => process.stdout.write(`advisory-detect: ${line}\n`);
const silent = {
  stdout: { write: () => {} },
  stderr: { write: (s: string) => void process.stderr.write(s) },
};

/** The old way, kept here only to measure against: one detection on the thread answering requests. */
function detectorOnRequestThread(done: { at?: number }): ServeExtension {
  return {
    name: 'detector-on-request-thread',
    start: async ({ store, dynamo }) => {
      const [{ detectRounds }, { readPlanConfig }] = await Promise.all([
        import('../lib/cli/detectRounds.js'),
        import('../lib/cli/planConfig.js'),
      ]);
      const plan = await readPlanConfig(undefined);
      const running = detectRounds({ store, dynamo, plan, clock: systemClock }).then(() => {
        done.at = Date.now();
      });
      return { stop: () => running };
    },
  };
}

/** The serve detector as shipped; its first run starts at once, and says when it made its plan. */
function detectorThread(done: { at?: number }) {
  // Its first run writes the plan it made (or why it failed): that is when the detection ended.
  const ended = () => {
    done.at ??= Date.now();
  };
  const output = { stdout: { write: ended }, stderr: { write: ended } };
  const extension = serveDetector({ everyMs: 3_600_000 });
  return {
    ...extension,
    start: (r: Parameters<ServeExtension['start']>[0]) => extension.start({ ...r, io: output }),
  };
}

async function seed(dataDir: string, now: Date): Promise<string[]> {
  const fleet = generateFleet({
    hosts: HOSTS,
    vms: HOSTS * 20,
    zones: 3,
    seed: 17,
    contendedShare: 0.1,
    now,
  });
  let at = now.getTime() - 3_600_000;
  const local = await openLocalStore({ dataDir, dynaliteThread: true, store: { clock: { now: () => at } } });
  try {
    await markDigestsWritten(local.store.ctx);
    at = now.getTime();
    await seedWindow(local.store, fleet, new Date(now.getTime() + 5_000), { batchHosts: 10, concurrency: 8 });
  } finally {
    await local.close();
  }
  return fleet.hypervisors.map((h) => h.host);
}

async function measure(dataDir: string, hosts: string[], mode: 'request-thread' | 'worker-thread') {
  const done: { at?: number } = {};
  const extension = mode === 'request-thread' ? detectorOnRequestThread(done) : detectorThread(done);
  const cpu0 = process.cpuUsage();
  const started = Date.now();
  const serve = await startServe({ dataDir, port: 0, io: silent, extensions: [extension] });
  const latencies: number[] = [];
  try {
    for (let i = 0; done.at === undefined || latencies.length < 20; i++) {
      const candidates = Array.from({ length: CANDIDATES }, (_, k) => {
        const host = hosts[(i * 7 + k) % hosts.length];
        return { host, nodename: host };
      });
      const t0 = process.hrtime.bigint();
      await askAdvisory(serve.url, `adv-${mode}-${i}`, candidates);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (Date.now() - started > 600_000)
        throw new Error(`${mode}: the detection did not finish in 10 minutes`);
    }
  } finally {
    await serve.close();
  }
  const cpu = process.cpuUsage(cpu0);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests_during_detection: latencies.length,
    detection_wall_s: round(((done.at ?? Date.now()) - started) / 1000, 2),
    p50_ms: round(percentile(sorted, 50), 2),
    p99_ms: round(percentile(sorted, 99), 2),
    max_ms: round(sorted.at(-1) ?? 0, 2),
    process_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
  };
}

export async function benchAdvisoryDetect(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'placid-bench-advisory-detect-'));
  try {
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const first = join(dir, 'store-a');
    log(`seeding ${HOSTS} hosts`);
    const hosts = await seed(first, now);
    const second = join(dir, 'store-b');
    cpSync(first, second, { recursive: true });
    const onRequestThread = await measure(first, hosts, 'request-thread');
    log(`detector on the request thread: ${JSON.stringify(onRequestThread)}`);
    const onWorker = await measure(second, hosts, 'worker-thread');
    log(`detector in its worker thread: ${JSON.stringify(onWorker)}`);
    return {
      hosts: HOSTS,
      vms: HOSTS * 20,
      candidates: CANDIDATES,
      target_p99_ms: 20,
      machine_load_average: round(loadavg()[0]),
      detector_on_request_thread: onRequestThread,
      detector_in_worker_thread: onWorker,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
