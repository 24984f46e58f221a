/**
 * Two source trees' `placid serve --replica` side by side (docs/serving.md's before/after table):
 * one dynalite, the serving bench's fleet, each request sent to every tree in turn with the same
 * candidates, so a loaded machine's load falls on both alike. Not part of `npm run bench`:
 *   RUNS=150 GAP=0 npx tsx bench/servingSideBySide.ts /tmp/before-tree /work/wt/perf
 * (a tree: `git archive <commit> | tar -x -C DIR` with a node_modules link). Prints each tree's
 * server CPU per request (main thread, schedstat) and wall percentiles.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { allWeighersConfig, askAdvisory, candidateDraws, HOSTS, storeFleet } from './advisory.js';
import { withDynalite } from './dynaliteProcess.js';
import { generateHosts } from './placement.js';
import { percentile, round } from './stats.js';

const trees = process.argv.slice(2);
const RUNS = Number(process.env.RUNS ?? 150);
const GAP = Number(process.env.GAP ?? 0);
const cpuNs = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
const CRED = { AWS_ACCESS_KEY_ID: 'b', AWS_SECRET_ACCESS_KEY: 'b', AWS_REGION: 'us-east-1' };
async function spawnServer(root: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...CRED },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /listening on (http:\/\/[^ \n]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`exit ${code} ${out}`)));
  });
  return { url, pid: child.pid!, child };
}
const dir = await mkdtemp(join(tmpdir(), 'perf-sbs-'));
const hosts = generateHosts(HOSTS);
const config = await allWeighersConfig(dir);
await withDynalite(async (d) => {
  await storeFleet({ endpoint: d.endpoint }, hosts);
  const servers = [];
  for (const t of trees)
    servers.push(
      await spawnServer(t, [
        'bin/placid.ts',
        'serve',
        '--replica',
        '--dynamodb-endpoint',
        d.endpoint,
        '--port',
        '0',
        '--config',
        config,
      ]),
    );
  const draw = candidateDraws(hosts);
  // A replica answers every candidate as unknown until its snapshot has loaded: wait for that.
  for (const server of servers) {
    while (
      ((await askAdvisory(server.url, `load-${Math.random()}`, draw())) as { unknown: unknown[] }).unknown
        .length > 0
    )
      await new Promise((r) => setTimeout(r, 200));
  }
  const cpu = servers.map(() => [] as number[]);
  const lat = servers.map(() => [] as number[]);
  for (let i = 0; i < RUNS + 20; i++) {
    const cands = draw();
    for (let s = 0; s < servers.length; s++) {
      if (GAP) await new Promise((r) => setTimeout(r, GAP));
      const b = cpuNs(servers[s].pid);
      const t = performance.now();
      const a = (await askAdvisory(servers[s].url, `r-${i}-${Math.random()}`, cands)) as {
        unknown: unknown[];
      };
      // A replica still loading its snapshot answers every candidate as unknown: that measures nothing.
      if (i >= 20 && a.unknown.length > 0)
        throw new Error(`${trees[s]}: ${a.unknown.length} unknown candidates`);
      if (i >= 20) {
        lat[s].push(performance.now() - t);
        cpu[s].push((cpuNs(servers[s].pid) - b) / 1e6);
      }
    }
  }
  for (let s = 0; s < servers.length; s++) {
    const c = cpu[s].sort((a, b) => a - b);
    const l = lat[s].sort((a, b) => a - b);
    const mean = c.reduce((x, y) => x + y, 0) / c.length;
    console.log(
      `${trees[s]}: gap ${GAP} ms, server CPU mean ${round(mean, 2)} p50 ${round(percentile(c, 50), 2)} p90 ${round(percentile(c, 90), 2)} ms; wall p50 ${round(percentile(l, 50), 2)} p99 ${round(percentile(l, 99), 2)} ms`,
    );
    servers[s].child.kill('SIGTERM');
  }
  console.log(
    `load ${loadavg()
      .map((x) => round(x, 2))
      .join(' ')}`,
  );
});
