/**
 * The ingest stage's speed. (1) Reports per second through the real ingest handler, on the local
 * queue, into dynalite, with the store's batching (BatchWriteItem for samples, concurrent
 * conditional writes for states), against the same items written one PutItem at a time: the ratio
 * is the figure to quote. (2) Parse + validate throughput in process, in samples per second.
 *
 * dynalite runs in a child process, as DynamoDB runs outside the Lambda: in the same process its
 * CPU work would queue behind the handler's on one event loop and blur what batching saves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { openLocalStore } from '../lib/local/localStore.js';
import { LocalPipeline } from '../lib/local/pipeline.js';
import { parseReportMessage } from '../lib/model/reports.js';
import { sampleItems } from '../lib/store/samples.js';
import { round, writeSection } from './stats.js';

const MESSAGES = 15;
const HOSTS_PER_MESSAGE = 4;
const VMS_PER_HOST = 5;
const SAMPLES_PER_REPORT = 6;
const PARSE_SECONDS = 2;

/** One agent message: a few hosts and their VMs, each with `samples` 10-second samples up to `now`. */
function reportMessage(m: number, now: number, samples = SAMPLES_PER_REPORT): string {
  const ts = (i: number) => new Date(now - (samples - i) * 10_000).toISOString();
  const reported_at = new Date(now - 1_000).toISOString();
  const hypervisors = [];
  const instances = [];
  for (let h = 0; h < HOSTS_PER_MESSAGE; h++) {
    const host = `bench-${m}-${h}`;
    hypervisors.push({
      host,
      availability_zone: `az${(h % 3) + 1}`,
      reported_at,
      vcpus_total: 64,
      vcpus_used: 20,
      cpu_allocation_ratio: 4,
      total_usable_ram_mb: 262_144,
      free_ram_mb: 131_072,
      total_usable_disk_gb: 2_000,
      free_disk_mb: 1_000_000,
      hypervisor_type: 'QEMU',
      aggregates: [{ name: `az${(h % 3) + 1}`, metadata: { availability_zone: `az${(h % 3) + 1}` } }],
      samples: Array.from({ length: samples }, (_, i) => ({
        ts: ts(i),
        steal_percent: (i * 7) % 30,
        cpu_percent: 55,
        load5: 12.5,
        migration_net_mbps: 0,
      })),
    });
    for (let v = 0; v < VMS_PER_HOST; v++) {
      instances.push({
        uuid: `00000000-0000-4000-8000-${String(m * 1000 + h * 100 + v).padStart(12, '0')}`,
        name: `vm-${m}-${h}-${v}`,
        host,
        availability_zone: `az${(h % 3) + 1}`,
        role: 'web',
        flavor: { name: 'm1.large', vcpus: 4, memory_mb: 8192, root_gb: 80 },
        server_group: { name: 'web', policy: 'anti-affinity' },
        consul: { node: `vm-${m}-${h}-${v}`, address: '10.0.0.1' },
        reported_at,
        samples: Array.from({ length: samples }, (_, i) => ({
          ts: ts(i),
          steal_percent: (i * 3) % 20,
          load5: 2.5,
          cpu_percent: 40,
        })),
      });
    }
  }
  return JSON.stringify({ schema_version: 1, hypervisors, instances });
}

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/** dynalite, in memory, in its own process; resolves with its endpoint. */
async function startDynaliteProcess(): Promise<{ endpoint: string; child: ChildProcess }> {
  const script =
    "const s=require('dynalite')({createTableMs:0,deleteTableMs:0,updateTableMs:0});" +
    "s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { endpoint: `http://127.0.0.1:${Number.parseInt(chunk.toString(), 10)}`, child };
}

async function withDynalite<T>(run: (endpoint: string) => Promise<T>): Promise<T> {
  const { endpoint, child } = await startDynaliteProcess();
  try {
    return await run(endpoint);
  } finally {
    child.kill();
  }
}

const throughHandler = (bodies: string[]) =>
  withDynalite(async (endpoint) => {
    const pipeline = await LocalPipeline.start({ endpoint });
    try {
      await pipeline.ingest([reportMessage(9_999, Date.now())]); // warm-up: connections, JIT
      const t0 = process.hrtime.bigint();
      const report = await pipeline.ingest(bodies);
      const elapsed = seconds(t0);
      if (report.rejected.length > 0) throw new Error(`bench message rejected: ${report.rejected[0].reason}`);
      return elapsed;
    } finally {
      await pipeline.close();
    }
  });

/** The same items, each with its own awaited PutItem: no batching, no concurrency. */
const onePutAtATime = (bodies: string[]) =>
  withDynalite(async (endpoint) => {
    const { dynamo, store, close } = await openLocalStore({ endpoint });
    const names = dynamo.tableNames;
    const put = (TableName: string, Item: Record<string, unknown>) =>
      dynamo.client.send(new PutCommand({ TableName, Item }));
    try {
      const now = new Date();
      const messages = bodies.map((b) => parseReportMessage(b, now));
      await put(names.leases, { name: 'warm-up' });
      const t0 = process.hrtime.bigint();
      for (const m of messages) {
        for (const item of sampleItems(store.ctx, m.hypervisors, m.instances)) await put(names.samples, item);
        for (const h of m.hypervisors) {
          const { host, nodename, reported_at } = h;
          await put(names.hosts, { host, nodename, reported_at, state: JSON.stringify(h.state) });
        }
        for (const { samples: _s, ...i } of m.instances) {
          await put(names.instances, {
            uuid: i.uuid,
            host: i.host,
            reported_at: i.reported_at,
            state: JSON.stringify(i),
          });
        }
      }
      return seconds(t0);
    } finally {
      await close();
    }
  });

function parseThroughput(): Record<string, number> {
  const body = reportMessage(0, Date.now(), 60);
  const samplesPerMessage = HOSTS_PER_MESSAGE * (1 + VMS_PER_HOST) * 60;
  const now = new Date();
  for (let i = 0; i < 50; i++) parseReportMessage(body, now); // warm-up
  let messages = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  while (seconds(t0) < PARSE_SECONDS) {
    parseReportMessage(body, now);
    messages++;
  }
  const elapsed = seconds(t0);
  const cpu = process.cpuUsage(cpu0);
  // CPU time, not wall time, makes "per core" hold on a busy machine.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    message_kib: round(Buffer.byteLength(body) / 1024),
    samples_per_message: samplesPerMessage,
    messages_per_s: Math.round(messages / elapsed),
    samples_per_s: Math.round((messages * samplesPerMessage) / elapsed),
    samples_per_cpu_s: Math.round((messages * samplesPerMessage) / cpuSeconds),
  };
}

export async function benchIngest(): Promise<Record<string, unknown>> {
  const now = Date.now();
  const bodies = Array.from({ length: MESSAGES }, (_, m) => reportMessage(m, now));
  const reports = MESSAGES * HOSTS_PER_MESSAGE * (1 + VMS_PER_HOST);
  const samples = reports * SAMPLES_PER_REPORT;
  const batched = await throughHandler(bodies);
  const single = await onePutAtATime(bodies);
  const rate = (n: number, s: number) => Math.round(n / s);
  const out = {
    workload: { messages: MESSAGES, reports, samples, items: reports + samples },
    handler_batched: {
      seconds: round(batched, 2),
      reports_per_s: rate(reports, batched),
      samples_per_s: rate(samples, batched),
    },
    one_put_item_at_a_time: {
      seconds: round(single, 2),
      reports_per_s: rate(reports, single),
      samples_per_s: rate(samples, single),
    },
    speedup: round(single / batched, 1),
    parse_validate: parseThroughput(),
  };
  process.stdout.write(
    `ingest: ${out.handler_batched.reports_per_s} reports/s batched through the handler vs ` +
      `${out.one_put_item_at_a_time.reports_per_s} one PutItem at a time (×${out.speedup}); ` +
      `parse+validate ${out.parse_validate.samples_per_cpu_s} samples per CPU-second\n`,
  );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeSection('ingest', await benchIngest());
}
