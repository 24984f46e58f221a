/**
 * `npm run bench simulation [SCENARIO[:MINUTES] ...]`: `placid simulate --timing` on example
 * scenarios (default: the default one, what `npm start` runs), one run each in a child process of
 * the built CLI. Per scenario: the child's CPU (user + sys, from /usr/bin/time, every thread) and
 * its main thread's share, its wall time, peak RSS, the time per phase from --timing, and what the
 * run found (so a faster run that found something else shows). `large:120` runs the first 120
 * simulated minutes of examples/scenarios/large.yaml. Entries of scenarios not run are kept.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { round } from './stats.js';

const RESULTS = resolve('bench/results.json');

export async function benchSimulation(): Promise<Record<string, unknown>> {
  const wanted = process.argv.slice(3);
  const build = spawnSync('node', ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const out: Record<string, unknown> = { ...previous(), note: NOTE };
  for (const spec of wanted.length > 0 ? wanted : ['default']) {
    const [name, minutes] = spec.split(':');
    const key = minutes ? `${name}_first_${minutes}_minutes` : name;
    out[key] = runScenario(name, minutes === undefined ? undefined : Number(minutes));
    process.stdout.write(`simulation ${key} ${JSON.stringify(out[key])}\n`);
  }
  return out;
}

const NOTE =
  'One run of `node bin/placid.cjs simulate --scenario examples/scenarios/<name>.yaml --timing --no-html --json`. cpu_s is every thread (the store runs in a worker thread); main_thread_cpu_s is the critical path when the machine has a core to spare; wall_s moves with the machine load (load_average at the start).';

function runScenario(name: string, minutes: number | undefined): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'placid-sim-bench-'));
  try {
    const file = scenarioFile(name, minutes, dir);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const args = ['--import', resolve('bench/mainThreadCpu.mjs'), 'bin/placid.cjs', 'simulate'];
    args.push('--scenario', file, '--timing', '--no-html', '--json');
    const r = spawnSync('/usr/bin/time', ['-f', 'time %e %U %S %M', 'node', ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    if (r.status !== 0 && r.status !== 1) throw new Error(`placid simulate ${name} failed: ${r.stderr}`);
    const [wall, user, sys, rssKb] = (/^time (.+)$/m.exec(r.stderr)?.[1] ?? '').split(' ').map(Number);
    const result = JSON.parse(r.stdout);
    const { placid, baseline } = result.runs;
    return {
      hosts: result.scenario.hosts,
      vms: result.scenario.vms,
      simulated_minutes: result.scenario.minutes,
      wall_s: round(wall),
      cpu_s: round(user + sys),
      main_thread_cpu_s: round(Number(/^main-thread-cpu-ms (\d+)$/m.exec(r.stderr)?.[1]) / 1000),
      peak_rss_mib: round(rssKb / 1024),
      load_average: Number(load),
      phases: phases(r.stderr),
      found: {
        vm_minutes_in_steal: { baseline: baseline.vm_minutes_in_steal, placid: placid.vm_minutes_in_steal },
        migrations: placid.migrations,
        violations: placid.violations.length + baseline.violations.length,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The example scenario's file, or a copy cut to its first `minutes`. */
function scenarioFile(name: string, minutes: number | undefined, dir: string): string {
  const file = resolve(`examples/scenarios/${name}.yaml`);
  if (minutes === undefined) return file;
  const cut = join(dir, `${name}.yaml`);
  const doc = parseYaml(readFileSync(file, 'utf8'));
  writeFileSync(cut, toYaml({ ...doc, duration_minutes: minutes }));
  return cut;
}

/** `--timing`'s lines (`ingest  41.2 s wall  38.0 s CPU`) as { ingest: { wall_s, cpu_s } }. */
function phases(stderr: string): Record<string, { wall_s: number; cpu_s: number }> {
  const out: Record<string, { wall_s: number; cpu_s: number }> = {};
  for (const m of stderr.matchAll(/^(\S+)\s+([\d.]+) s wall\s+([\d.]+) s CPU$/gm)) {
    out[m[1]] = { wall_s: Number(m[2]), cpu_s: Number(m[3]) };
  }
  return out;
}

function previous(): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(RESULTS, 'utf8')).simulation ?? {};
  } catch {
    return {};
  }
}
