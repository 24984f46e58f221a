/**
 * Where an advisory request's time goes inside `placid serve`: the server runs in this process
 * (startServe, the command's own code), a CPU profile covers only the timed requests (inspector),
 * and a GC observer records every pause. Not part of `npm run bench`; run it when looking:
 *   npx tsx bench/profileAdvisory.ts [--detect] [--heap] [--no-profile] [--fresh] [--out /tmp/advisory.cpuprofile]
 * It prints the functions with the most self time and the GC pause percentiles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { startServe } from '../lib/cli/serve.js';
import { serveDetector } from '../lib/cli/serveDetector.js';
import { askAdvisory, CANDIDATES, candidateDraws, HOSTS, storeFleet } from './advisory.js';
import { generateHosts } from './placement.js';
import { percentile, round } from './stats.js';

const RUNS = 300;
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** CPU milliseconds so far per thread name (main, libuv pool, V8 helpers), from /proc/self/task. */
function threadCpuMs(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[\d-]+$/, '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10;
      byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

interface HeapNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: HeapNode[];
}

/** Bytes allocated per request by each function (sampled), the largest first. */
function printAllocations(head: HeapNode): void {
  const self = new Map<string, number>();
  const walk = (n: HeapNode) => {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|lib|functions|bench)\//, '$1/')}`;
    self.set(name, (self.get(name) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c);
  };
  walk(head);
  const total = [...self.values()].reduce((s, x) => s + x, 0);
  console.log(`allocated (sampled): ${round(total / 1024 / RUNS)} KiB per request`);
  for (const [name, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${round(bytes / 1024 / RUNS, 1)} KiB\t${name}`);
}

const dir = await mkdtemp(join(tmpdir(), 'placid-profile-advisory-'));
try {
  const hosts = generateHosts(HOSTS);
  const dataDir = join(dir, 'store');
  // --fresh: the fleet written just now, as after a burst of host writes (every background read
  // then finds the whole fleet inside the change feed's overlap).
  await storeFleet({ dataDir }, hosts, args.includes('--fresh') ? 0 : 60_000);
  const config = join(dir, 'nova.json');
  await writeFile(
    config,
    JSON.stringify({ filter_scheduler: { weight_classes: ['nova.scheduler.weights.all_weighers'] } }),
  );
  const quiet = { write: () => true };
  const serve = await startServe({
    dataDir,
    port: 0,
    config,
    io: { stdout: quiet, stderr: process.stderr },
    extensions: args.includes('--detect') ? [serveDetector({ everyMs: 60_000, config })] : [],
  });
  const draw = candidateDraws(hosts);
  let ids = 0;
  const ask = () => askAdvisory(serve.url, `prof-${ids++}`, draw());
  for (let i = 0; i < 30; i++) await ask();
  const gcNow = (globalThis as { gc?: () => void }).gc;
  gcNow?.();
  const heap0 = process.memoryUsage().heapUsed;
  const pauses: { kind: number; ms: number }[] = [];
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      pauses.push({ kind: (e as unknown as { detail: { kind: number } }).detail.kind, ms: e.duration });
  });
  gc.observe({ entryTypes: ['gc'] });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  const profiling = !args.includes('--no-profile');
  if (profiling) await session.post('Profiler.start');
  if (args.includes('--heap'))
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  const threads0 = threadCpuMs();
  const cpu0 = process.cpuUsage();
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await ask();
    walls.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  const threads = threadCpuMs();
  for (const [name, ms] of threads0) threads.set(name, (threads.get(name) ?? 0) - ms);
  console.log(
    `CPU per request by thread: ${[...threads]
      .filter(([, ms]) => ms > 0)
      .map(([name, ms]) => `${name} ${round(ms / RUNS, 2)} ms`)
      .join(', ')}`,
  );
  if (gcNow) {
    await new Promise((r) => setTimeout(r, 200));
    gcNow();
    console.log(
      `heap retained over the run: ${round((process.memoryUsage().heapUsed - heap0) / 1024 / RUNS, 1)} KiB per request`,
    );
  }
  const { profile } = profiling
    ? ((await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } })
    : { profile: { nodes: [] as ProfileNode[] } };
  if (args.includes('--heap')) {
    const { profile: heap } = (await session.post('HeapProfiler.stopSampling')) as {
      profile: { head: HeapNode };
    };
    printAllocations(heap.head);
  }
  session.disconnect();
  gc.disconnect();
  await serve.close();
  if (out) await writeFile(out, JSON.stringify(profile));

  const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const self = new Map<string, number>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|h15lat)\//, '')}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (n.hitCount ?? 0));
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
  walls.sort((a, b) => a - b);
  const gcMs = pauses.map((p) => p.ms).sort((a, b) => a - b);
  console.log(
    `${RUNS} requests, ${CANDIDATES} candidates of ${HOSTS} hosts; client+server in one process: ` +
      `${round((cpu.user + cpu.system) / 1000 / RUNS, 2)} ms CPU per request, ` +
      `wall p50 ${round(percentile(walls, 50), 2)} p99 ${round(percentile(walls, 99), 2)} ms`,
  );
  console.log(
    `GC: ${gcMs.length} pauses, ${round(gcMs.reduce((s, x) => s + x, 0) / RUNS, 2)} ms per request; ` +
      `p50 ${round(percentile(gcMs, 50), 2)} p99 ${round(percentile(gcMs, 99), 2)} max ${round(gcMs.at(-1) ?? 0, 2)} ms; ` +
      `major ${pauses.filter((p) => p.kind !== 1).length}`,
  );
  for (const [name, hits] of top) console.log(`${round((100 * hits) / total, 1)}%\t${name}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
