/**
 * `npm run bench ingest_rounds`: the simulation's ingest, alone. Report rounds of the large
 * scenario's shape (1,000 hypervisors, 20 VMs each, 5 per-minute samples per report: one report
 * every 5 minutes) go through the real ingest stage on the local queue into dynalite in a worker
 * thread, 4 batches at once, with the simulation's store tuning, as `placid simulate` runs them.
 * The first round creates every state and is measured apart; then ROUNDS steady rounds, every
 * third of which rewrites the hosts (their 15-minute heartbeat). Per round: CPU of every thread
 * (the store's included) and of the main thread alone (Linux /proc), and per VM sample.
 * `INGEST_ROUNDS_HOSTS=60` gives the default scenario's size. `page_build_ms`: the CPU of building
 * one round's sample pages alone (messagePages over the parsed messages), median of 9, in process.
 */
import { readFileSync } from 'node:fs';
import { INGEST_STAGE, ingestPipelineStage } from '../lib/local/ingestPipelineStage.js';
import { LocalPipeline } from '../lib/local/pipeline.js';
import { parseReportMessage } from '../lib/model/reports.js';
import { SimClock } from '../lib/sim/simClock.js';
import { messagePages } from '../lib/store/samplePages.js';
import { round } from './stats.js';

const HOSTS = Number(process.env.INGEST_ROUNDS_HOSTS ?? 1000);
const VMS_PER_HOST = 20;
const SAMPLES = 5;
const ROUNDS = 6;
const START = Date.parse('2026-12-01T00:00:00Z');

/** The main thread's own CPU ms (utime + stime of its task). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** A value that moves from round to round, as load does. */
const level = (seed: number, i: number, r: number, mod: number) => ((seed * 7 + i * 13 + r) % mod) / 3;

/** One agent message per hypervisor, reported at `end`, its samples the 5 minutes before. */
export function roundMessages(end: number, r: number): string[] {
  const reportedAt = new Date(end).toISOString();
  const samples = (seed: number) =>
    Array.from({ length: SAMPLES }, (_, i) => ({
      ts: new Date(end - (SAMPLES - 1 - i) * 60_000).toISOString(),
      steal_percent: round(level(seed, i, r, 97)),
      load5: round(level(seed, i, r, 31)),
      cpu_percent: round(level(seed, i, r, 300)),
    }));
  return Array.from({ length: HOSTS }, (_, h) => {
    const host = `cmp-${String(h).padStart(5, '0')}`;
    const zone = `az${(h % 3) + 1}`;
    const instances = Array.from({ length: VMS_PER_HOST }, (_, v) => ({
      uuid: `00000000-0000-4000-8000-${String(h * VMS_PER_HOST + v).padStart(12, '0')}`,
      name: `vm-${h}-${v}`,
      host,
      nodename: host,
      availability_zone: zone,
      role: `role-${v % 5}`,
      flavor: { name: 'm1.large', vcpus: 2, memory_mb: 8192, root_gb: 40, ephemeral_gb: 0, swap: 0 },
      shared_storage: false,
      server_group: null,
      kubernetes_node: null,
      consul: null,
      last_migrated_at: null,
      reported_at: reportedAt,
      samples: samples(h * VMS_PER_HOST + v),
    }));
    const hypervisor = {
      host,
      nodename: host,
      availability_zone: zone,
      reported_at: reportedAt,
      vcpus_total: 40,
      vcpus_used: 40,
      total_usable_ram_mb: 524_288,
      free_ram_mb: 360_448,
      total_usable_disk_gb: 2_000,
      free_disk_mb: 1_200 * 1024,
      aggregates: [{ name: zone, metadata: { availability_zone: zone } }],
      instances: instances.map((i) => i.uuid),
      samples: samples(h).map((s) => ({ ...s, migration_net_mbps: 0 })),
    };
    return JSON.stringify({ schema_version: 1, hypervisors: [hypervisor], instances });
  });
}

export async function benchIngestRounds(): Promise<Record<string, unknown>> {
  const clock = new SimClock(START);
  const pipeline = await LocalPipeline.start({
    wallClock: clock,
    clock,
    stages: [ingestPipelineStage({ maxConcurrency: 4 })],
    // The simulation's store tuning (lib/sim/simulatedPlacid.ts) and its sighting lookback.
    store: { instanceHeartbeatMs: 6 * 3_600_000, sightingLookbackMs: 13 * 60_000 },
    dynaliteThread: true,
  });
  try {
    const { queue } = pipeline.queues(INGEST_STAGE);
    const rounds: { all_cpu_ms: number; main_thread_cpu_ms: number }[] = [];
    for (let r = 0; r <= ROUNDS; r++) {
      const end = START + (r + 1) * 5 * 60_000;
      await clock.advanceTo(end);
      const messages = roundMessages(end, r);
      const [all0, main0] = [cpuMs(), mainThreadCpuMs()];
      await queue.sendBatch(messages);
      const drained = await queue.drain({ waitForInvisible: false });
      if (drained.handlerErrors.length > 0) throw new Error(`ingest failed: ${drained.handlerErrors[0]}`);
      rounds.push({ all_cpu_ms: Math.round(cpuMs() - all0), main_thread_cpu_ms: mainThreadCpuMs() - main0 });
    }
    const steady = rounds.slice(1);
    const samples = HOSTS * (VMS_PER_HOST + 1) * SAMPLES * steady.length;
    const sum = (k: 'all_cpu_ms' | 'main_thread_cpu_ms') => steady.reduce((s, x) => s + x[k], 0);
    return {
      hosts: HOSTS,
      vms: HOSTS * VMS_PER_HOST,
      samples_per_round: HOSTS * (VMS_PER_HOST + 1) * SAMPLES,
      first_round: rounds[0],
      steady_rounds: steady,
      steady_us_per_sample: round((sum('all_cpu_ms') * 1000) / samples),
      steady_main_thread_us_per_sample: round((sum('main_thread_cpu_ms') * 1000) / samples),
      page_build_ms: pageBuildMs(),
      load_average: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    };
  } finally {
    await pipeline.close();
  }
}

/** CPU ms to build one round's sample pages (messagePages), median of 9 after a warm-up. */
export function pageBuildMs(): number {
  const end = START + 5 * 60_000;
  const messages = roundMessages(end, 0).map((body) => parseReportMessage(body, new Date(end)));
  const build = () => {
    for (const m of messages) messagePages(m.hypervisors, m.instances, 86_400);
  };
  for (let i = 0; i < 3; i++) build();
  const runs: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = cpuMs();
    build();
    runs.push(cpuMs() - t0);
  }
  return round(runs.sort((a, b) => a - b)[4]);
}
