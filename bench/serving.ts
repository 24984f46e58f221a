/**
 * What each serving path costs Nova (docs/serving.md): an advisory decision among 1,000 candidates
 * of a 10,000-host fleet held by DynamoDB in a process of its own (dynalite), asked
 * - of `placid serve --replica` (the recommended endpoint, next to nova-scheduler): back to back,
 *   and spaced 1.1 s apart (a quiet scheduler: the background refresh must not land on requests);
 * - of the Function URL handler (the deployed path without its TLS and internet round trip): warm,
 *   and its first request after a cold start (the whole fleet listed before answering).
 * Server CPU is the main thread's own (/proc/<pid>/task/<pid>/schedstat, nanoseconds), summed over
 * each request's window: what a request costs, not the idle refreshes between requests (reported
 * apart, per second).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ALL_WEIGHERS_CONFIG,
  allWeighersConfig,
  askAdvisory,
  CANDIDATES,
  candidateDraws,
  HOSTS,
  storeFleet,
} from './advisory.js';
import { withDynalite } from './dynaliteProcess.js';
import { generateHosts } from './placement.js';
import { percentile, round } from './stats.js';

const BACK_TO_BACK = 200;
const SPACED = 25;
const SPACED_GAP_MS = 1100;
const log = (line: string) => process.stdout.write(`serving: ${line}\n`);
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', AWS_REGION: 'us-east-1' };

/** The main thread's CPU nanoseconds so far (schedstat's first field). */
function mainThreadCpuNs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
}

/** A server process; resolves once it prints where it listens. */
async function spawnServer(args: string[], env: NodeJS.ProcessEnv) {
  const root = new URL('..', import.meta.url).pathname;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const m = /listening on (http:\/\/[^ \n]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return {
    url,
    cpuNs: () => mainThreadCpuNs(child.pid!),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

type Server = Awaited<ReturnType<typeof spawnServer>>;

/** `runs` requests `gapMs` apart: latency percentiles and the server's CPU inside each request. */
async function measure(server: Server, ask: (id: string) => Promise<unknown>, runs: number, gapMs: number) {
  const latencies: number[] = [];
  let windowsNs = 0;
  const cpu0 = server.cpuNs();
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    const before = server.cpuNs();
    const t = performance.now();
    await ask(`req-${gapMs}-${i}-${Math.random()}`);
    latencies.push(performance.now() - t);
    windowsNs += server.cpuNs() - before;
  }
  const elapsedS = (performance.now() - started) / 1000;
  const totalMs = (server.cpuNs() - cpu0) / 1e6;
  const requestMs = windowsNs / 1e6;
  latencies.sort((a, b) => a - b);
  return {
    runs,
    gap_ms: gapMs,
    p50_ms: round(percentile(latencies, 50), 2),
    p90_ms: round(percentile(latencies, 90), 2),
    p99_ms: round(percentile(latencies, 99), 2),
    server_cpu_ms_per_request: round(requestMs / runs, 2),
    // CPU between requests (background refreshes, GC): a cost per second, whatever the traffic.
    server_idle_cpu_ms_per_second: gapMs > 0 ? round((totalMs - requestMs) / elapsedS, 2) : undefined,
  };
}

export async function benchServing(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'placid-bench-serving-'));
  try {
    const hosts = generateHosts(HOSTS);
    const config = await allWeighersConfig(dir);
    return await withDynalite(async (dynalite) => {
      await storeFleet({ endpoint: dynalite.endpoint }, hosts);
      const draw = candidateDraws(hosts);
      const replica = await spawnServer(
        [
          'bin/placid.ts',
          'serve',
          '--replica',
          '--dynamodb-endpoint',
          dynalite.endpoint,
          '--port',
          '0',
          '--config',
          config,
        ],
        CREDENTIALS,
      );
      const askOf = (server: Server) => (id: string) => askAdvisory(server.url, id, draw());
      let replicaResults: Record<string, unknown>;
      try {
        for (let i = 0; i < 20; i++) await askOf(replica)(`warm-${i}`);
        const backToBack = await measure(replica, askOf(replica), BACK_TO_BACK, 0);
        log(`replica back to back: ${JSON.stringify(backToBack)}`);
        const spaced = await measure(replica, askOf(replica), SPACED, SPACED_GAP_MS);
        log(`replica spaced: ${JSON.stringify(spaced)}`);
        replicaResults = { back_to_back: backToBack, spaced };
      } finally {
        await replica.close();
      }
      const url = await spawnServer(['bench/urlHandlerServer.ts'], {
        ...CREDENTIALS,
        PLACID_DYNAMODB_ENDPOINT: dynalite.endpoint,
        PLACID_SCHEDULER_CONFIG: JSON.stringify(ALL_WEIGHERS_CONFIG),
      });
      try {
        const t = performance.now();
        await askOf(url)('cold-0');
        const coldMs = performance.now() - t;
        for (let i = 0; i < 20; i++) await askOf(url)(`warm-${i}`);
        const warm = await measure(url, askOf(url), BACK_TO_BACK, 0);
        log(`function URL handler: first request ${round(coldMs)} ms; warm ${JSON.stringify(warm)}`);
        return {
          hosts: HOSTS,
          candidates: CANDIDATES,
          target_server_cpu_ms: 5,
          target_p99_ms: 20,
          machine_load_average: round(loadavg()[0]),
          replica: replicaResults,
          function_url_handler: { first_request_after_cold_start_ms: round(coldMs), warm },
        };
      } finally {
        await url.close();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
