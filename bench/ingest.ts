/**
 * The ingest stage's speed. (1) Reports per second through the real ingest handler, on the local
 * queue, into dynalite, with the store's batching (the sample pages of a whole SQS batch in one
 * BatchWriteItem per 25, concurrent conditional writes for states), against the same items written
 * one PutItem at a time. With sample pages there are few items left to batch (60 pages for 2,160
 * samples here), so the two are close, and the handler also parses and checks conditions. (2)
 * Parse + validate throughput in process, in samples per second. (3) The figure to quote for
 * ingest cost: one minute of a 60-host / 1,000-VM fleet in CPU ms, design by design
 * (fleetMinute.ts).
 *
 * dynalite runs in a child process (dynaliteProcess.ts), as DynamoDB runs outside the Lambda.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { openLocalStore } from '../lib/local/localStore.js';
import { LocalPipeline } from '../lib/local/pipeline.js';
import { parseReportMessage } from '../lib/model/reports.js';
import { messagePages } from '../lib/store/samplePages.js';
import { childCpuMs, type DynaliteProcess, ownCpuMs, withDynalite } from './dynaliteProcess.js';
import { benchFleetMinute } from './fleetMinute.js';
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

interface Cost {
  seconds: number;
  /** This process's and dynalite's CPU: unlike wall time, it holds on a busy machine. */
  cpu_ms: number;
}

async function measured(dynalite: DynaliteProcess, run: () => Promise<void>): Promise<Cost> {
  const [t0, cpu0, child0] = [process.hrtime.bigint(), ownCpuMs(), childCpuMs(dynalite.child)];
  await run();
  const cpu_ms = ownCpuMs() - cpu0 + childCpuMs(dynalite.child) - child0;
  return { seconds: seconds(t0), cpu_ms: Math.round(cpu_ms) };
}

const throughHandler = (bodies: string[]) =>
  withDynalite(async (dynalite) => {
    const pipeline = await LocalPipeline.start({ endpoint: dynalite.endpoint });
    try {
      await pipeline.ingest([reportMessage(9_999, Date.now())]); // warm-up: connections, JIT
      return await measured(dynalite, async () => {
        const report = await pipeline.ingest(bodies);
        if (report.rejected.length > 0)
          throw new Error(`bench message rejected: ${report.rejected[0].reason}`);
      });
    } finally {
      await pipeline.close();
    }
  });

/** The same items, each with its own awaited PutItem: no batching, no concurrency. */
const onePutAtATime = (bodies: string[]) =>
  withDynalite(async (dynalite) => {
    const { dynamo, store, close } = await openLocalStore({ endpoint: dynalite.endpoint });
    const names = dynamo.tableNames;
    const put = (TableName: string, Item: Record<string, unknown>) =>
      dynamo.client.send(new PutCommand({ TableName, Item }));
    try {
      const now = new Date();
      const messages = bodies.map((b) => parseReportMessage(b, now));
      await put(names.leases, { name: 'warm-up' });
      return await measured(dynalite, async () => {
        for (const m of messages) {
          const pages = messagePages(m.hypervisors, m.instances, store.ctx.sampleRetentionSeconds);
          for (const { item } of pages) await put(names.samples, item as unknown as Record<string, unknown>);
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
      });
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
  // One sample page per hypervisor and message (its VMs' samples included).
  const pages = MESSAGES * HOSTS_PER_MESSAGE;
  const batched = await throughHandler(bodies);
  const single = await onePutAtATime(bodies);
  const rate = (n: number, s: number) => Math.round(n / s);
  const out = {
    workload: { messages: MESSAGES, reports, samples, items: reports + pages },
    handler_batched: {
      seconds: round(batched.seconds, 2),
      cpu_ms: batched.cpu_ms,
      reports_per_s: rate(reports, batched.seconds),
      samples_per_s: rate(samples, batched.seconds),
    },
    one_put_item_at_a_time: {
      seconds: round(single.seconds, 2),
      cpu_ms: single.cpu_ms,
      reports_per_s: rate(reports, single.seconds),
      samples_per_s: rate(samples, single.seconds),
    },
    // Wall time, as before; handler CPU also covers parsing, which the one-at-a-time run does untimed.
    speedup: round(single.seconds / batched.seconds, 1),
    parse_validate: parseThroughput(),
    fleet_minute: await benchFleetMinute(),
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
