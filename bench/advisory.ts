/**
 * Nova's question through `placid serve`, warm: an advisory decision among 1,000 candidates of a
 * 10,000-host fleet (every weigher on), timed from the client's POST to the parsed answer over
 * loopback HTTP. The server is the real command (`placid serve`) in its own process; its CPU time
 * per request is read from /proc, the figure a busy shared machine inflates least. Twice: on its
 * local store (dynalite in the server's process, on disk), and with the store in a process of its
 * own (`--dynamodb-endpoint`), as DynamoDB runs beside a deployed decision API.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalPipeline } from '../lib/local/pipeline.js';
import type { HostState } from '../lib/model/hostState.js';
import { batchPut } from '../lib/store/batchWriter.js';
import { reportAttributes, reportedUsage } from '../lib/store/hostItems.js';
import { TABLES } from '../lib/store/tables.js';
import { childCpuMs, withDynalite } from './dynaliteProcess.js';
import { generateHosts } from './placement.js';
import { percentile, round, time } from './stats.js';

export const HOSTS = 10_000;
export const CANDIDATES = 1_000;
const RUNS = 200;
const log = (line: string) => process.stdout.write(`advisory: ${line}\n`);

/** One advisory request for an m1.small among `candidates`, POSTed to `url`; throws unless answered 200. */
export async function askAdvisory(
  url: string,
  requestId: string,
  candidates: readonly { host: string; nodename: string }[],
): Promise<{ candidates?: { passes: boolean }[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      request_id: requestId,
      advisory: true,
      flavor: { name: 'm1.small', vcpus: 1, memory_mb: 1024, root_gb: 10 },
      candidates,
    }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`advisory answer ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** `placid serve` as a process of its own; resolves once it says where it listens. */
export async function spawnServe(storeArgs: string[], config: string) {
  const root = new URL('..', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    // --trace-gc: each collection's pause, as V8 prints it, is read from the server's stdout.
    [
      '--trace-gc',
      '--import',
      'tsx',
      'bin/placid.ts',
      'serve',
      ...storeArgs,
      '--port',
      '0',
      '--config',
      config,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const gcPauses: number[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let pending = '';
    child.stdout.on('data', (chunk) => {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const pause = gcPause(line);
        if (pause !== undefined) gcPauses.push(pause);
        else out += `${line}\n`;
      }
      const m = /listening on (http:\/\/[^ ]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`placid serve exited (${code}): ${out}`)));
  });
  const ticks = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (proc(5) fields 14 and 15, counted here after the command name), 10 ms ticks
    return Number(fields[11]) + Number(fields[12]);
  };
  return {
    url,
    pid: child.pid as number,
    cpuMs: () => ticks() * 10,
    gcPauses,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The main-thread pause of one `--trace-gc` line ("Scavenge 150.5 (170.9) -> 138.5 (172.4) MB, 7.40 / 0.06 ms"). */
function gcPause(line: string): number | undefined {
  const m = /: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)\b.*?MB, ([\d.]+) \/ [\d.]+ ms/.exec(
    line,
  );
  return m ? Number(m[1]) : undefined;
}

/** Stores the generated fleet as reported and written a minute ago (serve runs on the real clock). */
export async function storeFleet(
  store: { dataDir: string } | { endpoint: string },
  hosts: readonly HostState[],
  writtenAgoMs = 60_000,
): Promise<void> {
  const pipeline = await LocalPipeline.start({ ...store, stages: [] });
  try {
    const now = Date.now();
    const items = hosts.map((h) => ({
      host: h.host,
      nodename: h.nodename,
      ...reportAttributes(
        {
          host: h.host,
          nodename: h.nodename,
          availability_zone: h.aggregates[0]?.metadata.availability_zone ?? 'nova',
          reported_at: new Date(now - 60_000).toISOString(),
          state: h,
          samples: [],
        },
        reportedUsage(h),
        // Written a minute ago too: a warm server's change feed holds what changed in the last
        // seconds, not the whole fleet (inside the feed's 10 s overlap every background read
        // would list all 10,000 hosts again, ~0.4 s of CPU each, which no warm server sees).
        now - writtenAgoMs,
      ),
      claims: {},
      version: 1,
    }));
    await batchPut(pipeline.dynamo.client, TABLES.hosts, pipeline.dynamo.tableNames.hosts, items, {
      concurrency: 8,
    });
  } finally {
    await pipeline.close();
  }
}

/** 1,000 distinct hosts of the fleet, a different draw per request (seeded). */
export function candidateDraws(hosts: readonly HostState[]) {
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return () => {
    const start = Math.floor(rnd() * hosts.length);
    const stride = 1 + Math.floor(rnd() * 7);
    return Array.from({ length: CANDIDATES }, (_, i) => {
      const h = hosts[(start + i * stride) % hosts.length];
      return { host: h.host, nodename: h.nodename };
    });
  };
}

export function benchAdvisory(): Promise<Record<string, unknown>> {
  return benchAdvisoryWith();
}

/** The benchmark, with hooks around the timed runs (a profiler, when looking for the time). */
async function benchAdvisoryWith(
  before: () => Promise<void> = async () => {},
  after: () => Promise<void> = async () => {},
): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'placid-bench-advisory-'));
  try {
    const hosts = generateHosts(HOSTS);
    const config = join(dir, 'nova.json');
    await writeFile(
      config,
      JSON.stringify({ filter_scheduler: { weight_classes: ['nova.scheduler.weights.all_weighers'] } }),
    );
    const dataDir = join(dir, 'store');
    await storeFleet({ dataDir }, hosts);
    const local = await measure(await spawnServe(['--data-dir', dataDir], config), hosts, before, after);
    log(`local store: ${summary(local)}`);
    const separate = await withDynalite(async (dynalite) => {
      await storeFleet({ endpoint: dynalite.endpoint }, hosts);
      const serve = await spawnServe(['--dynamodb-endpoint', dynalite.endpoint], config);
      const store0 = childCpuMs(dynalite.child);
      const result = await measure(
        serve,
        hosts,
        async () => {},
        async () => {},
      );
      return {
        ...result,
        store_cpu_ms_per_request: round((childCpuMs(dynalite.child) - store0) / (RUNS + 20), 2),
      };
    });
    log(`store in its own process: ${summary(separate)}`);
    return {
      hosts: HOSTS,
      candidates: CANDIDATES,
      target_p99_ms: 20,
      machine_load_average: round(loadavg()[0]),
      local_store: local,
      store_in_own_process: separate,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const summary = (r: {
  p50_us: number;
  p99_ms: number;
  server_cpu_ms_per_request: number;
  server_gc: { pauses: number; p50_ms: number; max_ms: number };
}) =>
  `p50 ${round(r.p50_us / 1000, 2)} ms, p99 ${r.p99_ms} ms over ${RUNS} requests; ` +
  `server ${r.server_cpu_ms_per_request} ms CPU each; ${r.server_gc.pauses} GC pauses ` +
  `(p50 ${r.server_gc.p50_ms} ms, max ${r.server_gc.max_ms} ms); load average ${round(loadavg()[0])}`;

/** 20 warm-up requests, then RUNS timed ones; stops the server. */
async function measure(
  serve: Awaited<ReturnType<typeof spawnServe>>,
  hosts: readonly HostState[],
  before: () => Promise<void>,
  after: () => Promise<void>,
) {
  try {
    const draw = candidateDraws(hosts);
    let ids = 0;
    let passed = 0;
    const ask = async () => {
      const answer = await askAdvisory(serve.url, `adv-${ids++}`, draw());
      if (!answer.candidates)
        throw new Error(`advisory answer without candidates: ${JSON.stringify(answer)}`);
      passed += answer.candidates.filter((c) => c.passes).length;
    };
    for (let i = 0; i < 20; i++) await ask();
    await before();
    const cpu0 = serve.cpuMs();
    const gc0 = serve.gcPauses.length;
    const timing = await time(ask, RUNS, 0);
    const cpuMs = serve.cpuMs() - cpu0;
    // Lines printed during the last request may still be in the pipe.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pauses = serve.gcPauses.slice(gc0).sort((a, b) => a - b);
    await after();
    return {
      ...timing,
      p99_ms: round(timing.p99_us / 1000, 2),
      server_cpu_ms_per_request: round(cpuMs / RUNS, 2),
      server_gc: {
        pauses: pauses.length,
        ms_per_request: round(pauses.reduce((sum, p) => sum + p, 0) / RUNS, 2),
        p50_ms: round(percentile(pauses, 50), 2),
        p99_ms: round(percentile(pauses, 99), 2),
        max_ms: round(pauses.at(-1) ?? 0, 2),
      },
      mean_passing_candidates: round(passed / (RUNS + 20)),
    };
  } finally {
    await serve.close();
  }
}
