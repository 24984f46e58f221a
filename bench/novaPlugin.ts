/**
 * Nova with Placid beside Nova alone: Nova 26's filter+weigh step through its own handlers
 * (bench/nova_plugin.py, Debian's python3-nova), at 200, 1,000 and 5,000 candidates of a
 * 10,000-host fleet, interleaved on the same candidates. Nova alone runs its default filters and
 * weighers; the other variant runs PlacidFilter + PlacidWeigher asking a real `placid serve` over
 * loopback HTTP (its CPU per request read from /proc). Then the plug-in's cost per boot with the
 * breaker open (the endpoint dead).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hostStateInput, toHostState } from '../lib/model/hostSchema.js';
import { spawnServe, storeFleet } from './advisory.js';
import { generateHostInputs } from './placement.js';
import { round } from './stats.js';

const FLEET = 10_000;
/** Runs per variant and size: the whole bench stays within a few minutes on a busy machine. */
const RUNS = { 200: 40, 1000: 40, 5000: 10 };
const log = (line: string) => process.stdout.write(`nova-plugin: ${line}\n`);

/** bench/nova_plugin.py with the fleet built, waiting for its job line. */
async function startNovaSide(fleetFile: string) {
  const child = spawn(
    '/usr/bin/python3',
    [new URL('./nova_plugin.py', import.meta.url).pathname, fleetFile],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error('bench/nova_plugin.py ended without an answer');
    return JSON.parse(value as string);
  };
  const ready = await next();
  if (!ready.ready) throw new Error(`bench/nova_plugin.py did not start: ${JSON.stringify(ready)}`);
  return {
    nova: ready.nova,
    run: async (job: unknown) => {
      child.stdin.end(`${JSON.stringify(job)}\n`);
      return next();
    },
  };
}

export async function benchNovaPlugin(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'placid-bench-nova-plugin-'));
  try {
    const inputs = generateHostInputs(FLEET);
    const fleetFile = join(dir, 'fleet.json');
    const config = join(dir, 'nova.json');
    await writeFile(fleetFile, JSON.stringify(inputs));
    await writeFile(
      config,
      JSON.stringify({
        DEFAULT: { service_down_time: 3600 },
        filter_scheduler: { weight_classes: ['nova.scheduler.weights.all_weighers'] },
      }),
    );
    const novaSide = startNovaSide(fleetFile);
    const dataDir = join(dir, 'store');
    await storeFleet(
      { dataDir },
      inputs.map((i) => toHostState(hostStateInput.parse(i))),
    );
    const serve = await spawnServe(['--data-dir', dataDir, '--no-detect'], config);
    try {
      const nova = await novaSide;
      const started = Date.now();
      const result = (await nova.run({ url: serve.url, pid: serve.pid, sizes: RUNS })) as {
        sizes: Record<string, unknown>[];
      };
      for (const s of result.sizes) log(JSON.stringify(s));
      return {
        fleet: FLEET,
        nova: nova.nova,
        targets:
          'nova_with_placid p50 and p90 ≤ nova_alone at every size; p99 ≤ 20 ms at 1,000; breaker open ≤ 1 ms per boot',
        ...result,
        seconds: round((Date.now() - started) / 1000),
        machine_load_average: round(loadavg()[0]),
      };
    } finally {
      await serve.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
