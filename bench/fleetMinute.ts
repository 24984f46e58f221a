/**
 * One minute of a 60-hypervisor / 1,000-VM fleet through dynalite, in CPU milliseconds (this
 * process plus dynalite's), for successive designs of the same writes:
 * - `per_sample_layout`: the design before sample pages, rebuilt here for comparison: one samples
 *   item per sample (BatchWriteItem) and a conditional PutItem per instance on every report;
 * - `sample_pages`: sample pages written per message, every host state written on every report,
 *   instance states only when changed or their heartbeat is due (the design before host skips);
 * - `batched`: the store as the ingest stage now drives it, per SQS batch of 10 messages: each
 *   message's states (host and instance states skipped when unchanged), then the pages of the
 *   whole batch in ⌈pages / 25⌉ BatchWriteItem calls, then the ingest watermark once;
 * - `through_ingest_batch`: the same through lib/ingest's ingestBatch itself (SQS records,
 *   parsing, known-host checks, partial batch responses), parsing included.
 * Each agent sends one message a minute: its hypervisor and its VMs, one sample each. Minute 0
 * creates every state and is not measured; states then stay unchanged, as in a quiet fleet, so
 * the state writes left are heartbeats (spread over ¾–1 × the heartbeat per host and per VM).
 * Parsing is measured apart (`parse_cpu_ms_per_minute`); only `through_ingest_batch` includes it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { newestReportAt } from '../lib/ingest/batchWrites.js';
import { ingestBatch } from '../lib/ingest/ingestBatch.js';
import { KnownHosts } from '../lib/ingest/knownHosts.js';
import { NotedWatermark } from '../lib/ingest/notedWatermark.js';
import { openLocalStore } from '../lib/local/localStore.js';
import { LocalSqsQueue } from '../lib/local/sqsQueue.js';
import { toSqsRecord } from '../lib/local/sqsRecord.js';
import { parseReportMessage, type ReportMessage } from '../lib/model/reports.js';
import { batchPut } from '../lib/store/batchWriter.js';
import { epochSeconds } from '../lib/store/context.js';
import type { FleetStore } from '../lib/store/fleetStore.js';
import { putHostReport } from '../lib/store/hostWrites.js';
import { TABLES } from '../lib/store/tables.js';
import { childCpuMs, type DynaliteProcess, ownCpuMs, withDynalite } from './dynaliteProcess.js';
import { hypervisorReport, instanceReport, reportTimes, type VmShape } from './fleetReports.js';
import { round } from './stats.js';

const HOSTS = 60;
const VMS = 1_000;
const MINUTE = 60_000;
const BASE = Date.parse('2026-12-01T00:00:00Z');
/** Messages per ingest invocation: the stack's default `ingestBatchSize`. */
const SQS_BATCH = 10;

const VM_SHAPE: VmShape = {
  flavor: { name: 'm1.large', vcpus: 4, memory_mb: 8192, root_gb: 80 },
  serverGroups: 20,
  load5: 2.5,
};

/** One message per hypervisor: the node and its VMs, one sample each, taken at `minute`. */
function fleetMessages(minute: number): string[] {
  const t = reportTimes(BASE, minute);
  return Array.from({ length: HOSTS }, (_, h) => {
    const hypervisor = hypervisorReport(h, `cmp-${String(h).padStart(3, '0')}`, t);
    const instances = [];
    for (let v = h; v < VMS; v += HOSTS) {
      instances.push(instanceReport(v, hypervisor, `10.0.${h}.${v % 250}`, VM_SHAPE, t));
    }
    return JSON.stringify({ schema_version: 1, hypervisors: [hypervisor], instances });
  });
}

/** One minute's messages, parsed and as the bodies the agents sent. */
interface Minute {
  messages: ReportMessage[];
  bodies: string[];
  now: Date;
}

type Writer = (store: FleetStore, minute: Minute) => Promise<unknown>;

/** Every host state written on every report, as before host skips: no write memo. */
const writeHostsAlways = async (store: FleetStore, message: ReportMessage) => {
  for (const h of message.hypervisors) await putHostReport(store.ctx, h);
};

/** The layout before sample pages: an item per sample, and every instance state rewritten. */
const perSampleLayout: Writer = async (store, { messages }) => {
  for (const message of messages) {
    const { ctx } = store;
    const expiry = (ts: string) => epochSeconds(Date.parse(ts)) + ctx.sampleRetentionSeconds;
    const items: Record<string, unknown>[] = [];
    for (const h of message.hypervisors) {
      const entity = `host/${encodeURIComponent(h.host)}/${encodeURIComponent(h.nodename)}`;
      for (const s of h.samples) items.push({ entity, ...s, expires_at: expiry(s.ts) });
    }
    for (const i of message.instances) {
      const entity = `instance/${encodeURIComponent(i.uuid)}`;
      for (const s of i.samples) items.push({ entity, ...s, host: i.host, expires_at: expiry(s.ts) });
    }
    await batchPut(ctx.doc, TABLES.samples, ctx.tables.samples, items, { retry: ctx.retry });
    await writeHostsAlways(store, message);
    await Promise.all(
      message.instances.map(({ samples: _s, ...state }) =>
        ctx.doc
          .send(
            new PutCommand({
              TableName: ctx.tables.instances,
              Item: {
                uuid: state.uuid,
                host: state.host,
                nodename: state.nodename,
                reported_at: state.reported_at,
                expires_at: epochSeconds(Date.parse(state.reported_at)) + ctx.instanceRetentionSeconds,
                state: JSON.stringify(state),
              },
              ConditionExpression: 'attribute_not_exists(#uuid) OR #reported_at < :reported_at',
              ExpressionAttributeNames: { '#uuid': 'uuid', '#reported_at': 'reported_at' },
              ExpressionAttributeValues: { ':reported_at': state.reported_at },
            }),
          )
          .catch(() => undefined),
      ),
    );
  }
};

/** Sample pages per message, host states always written, instance states skipped when unchanged. */
const samplePages: Writer = async (store, { messages }) => {
  for (const message of messages) {
    await store.putSamples(message.hypervisors, message.instances);
    await writeHostsAlways(store, message);
    for (const i of message.instances) await store.putInstanceReport(i);
  }
};

const inBatches = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / SQS_BATCH) }, (_, b) =>
    items.slice(b * SQS_BATCH, (b + 1) * SQS_BATCH),
  );

/** What ingestBatch asks of the store per SQS batch, without the queue plumbing and parsing. */
const batched: Writer = async (store, { messages }) => {
  for (const batch of inBatches(messages)) {
    for (const message of batch) await store.putStates(message);
    await store.putSamplePages(batch.flatMap((m) => store.samplePages(m)));
    await store.noteIngested(batch.map(newestReportAt).sort().at(-1)!);
  }
};

/**
 * ingestBatch as a warm ingest Lambda container runs it: one dead-letter queue for its life, and
 * message ids numbered across invocations. Each call delivers one SQS batch of `bodies`, sent at
 * `now`, and throws unless every record was stored.
 */
export function warmIngestBatch(queueName: string) {
  const deadLetter = new LocalSqsQueue({ name: `${queueName}-dlq` });
  const queue = {
    arn: `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
    region: 'us-east-1',
    senderId: 'BENCH',
  };
  let serial = 0;
  const watermark = new NotedWatermark();
  return async (store: FleetStore, knownHosts: KnownHosts, bodies: string[], now: Date): Promise<void> => {
    const event: SQSEvent = {
      Records: bodies.map((body) =>
        toSqsRecord(
          {
            messageId: `m${++serial}`,
            body,
            attributes: {},
            sentTimestamp: now.getTime(),
            receiveCount: 1,
            visibleAt: 0,
          },
          queue,
        ),
      ),
    };
    const result = await ingestBatch(event, {
      store,
      deadLetter,
      clock: { now: () => now.getTime() },
      knownHosts,
      watermark,
    });
    if (result.response.batchItemFailures.length + result.rejections.length > 0) {
      throw new Error(`${queueName} bench batch not fully stored: ${JSON.stringify(result.counts)}`);
    }
  };
}

/** The ingest stage's core itself, as a warm Lambda container would run it (known hosts cached). */
function throughIngestBatch(): Writer {
  const ingest = warmIngestBatch('bench');
  let knownHosts: KnownHosts | undefined;
  return async (store, { bodies, now }) => {
    knownHosts ??= KnownHosts.inStore(store);
    for (const batch of inBatches(bodies)) await ingest(store, knownHosts, batch, now);
  };
}

export interface MinuteCost {
  cpu_ms: number;
  client_ms: number;
  dynalite_ms: number;
  /** DynamoDB requests by command; BatchWriteItem also as items. */
  requests: Record<string, number>;
}

/** Counts the requests a store sends, by command name (and BatchWrite items). */
function countRequests(store: FleetStore): Record<string, number> {
  const counts: Record<string, number> = {};
  store.ctx.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      counts[name] = (counts[name] ?? 0) + 1;
      const batch = (args.input as { RequestItems?: Record<string, unknown[]> }).RequestItems;
      if (name === 'BatchWriteItem' && batch) {
        counts.BatchWriteItems = (counts.BatchWriteItems ?? 0) + Object.values(batch).flat().length;
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  );
  return counts;
}

/** Minutes 0..`minutes` of the fleet through `write`; the cost of each minute after the first. */
async function runMinutes(dynalite: DynaliteProcess, write: Writer, minutes: number): Promise<MinuteCost[]> {
  let now = new Date(BASE);
  const local = await openLocalStore({
    endpoint: dynalite.endpoint,
    store: { clock: { now: () => now.getTime() } },
  });
  try {
    const counts = countRequests(local.store);
    const costs: MinuteCost[] = [];
    for (let minute = 0; minute <= minutes; minute++) {
      now = new Date(BASE + minute * MINUTE + 5_000);
      const bodies = fleetMessages(minute);
      const messages = bodies.map((body) => parseReportMessage(body, now));
      for (const key of Object.keys(counts)) delete counts[key];
      const client0 = ownCpuMs();
      const dynalite0 = childCpuMs(dynalite.child);
      await write(local.store, { messages, bodies, now });
      const client_ms = ownCpuMs() - client0;
      const dynalite_ms = childCpuMs(dynalite.child) - dynalite0;
      if (minute === 0) continue;
      costs.push({ cpu_ms: client_ms + dynalite_ms, client_ms, dynalite_ms, requests: { ...counts } });
    }
    return costs;
  } finally {
    await local.close();
  }
}

function summary(costs: MinuteCost[]) {
  const mean = (pick: (c: MinuteCost) => number) =>
    round(costs.reduce((s, c) => s + pick(c), 0) / costs.length);
  const requests: Record<string, number> = {};
  for (const c of costs)
    for (const [k, n] of Object.entries(c.requests)) requests[k] = (requests[k] ?? 0) + n;
  return {
    minutes_measured: costs.length,
    cpu_ms_per_minute: mean((c) => c.cpu_ms),
    client_ms_per_minute: mean((c) => c.client_ms),
    dynalite_ms_per_minute: mean((c) => c.dynalite_ms),
    cpu_ms_by_minute: costs.map((c) => Math.round(c.cpu_ms)),
    instance_puts_by_minute: costs.map((c) => c.requests.PutItem ?? 0),
    host_updates_by_minute: costs.map((c) => c.requests.UpdateItem ?? 0),
    requests_per_minute: Object.fromEntries(
      Object.entries(requests).map(([k, n]) => [k, round(n / costs.length)]),
    ),
  };
}

function parseCpuMs(): number {
  const bodies = fleetMessages(1);
  const now = new Date(BASE + MINUTE + 5_000);
  for (const body of bodies) parseReportMessage(body, now); // warm-up
  const cpu0 = ownCpuMs();
  for (const body of bodies) parseReportMessage(body, now);
  return round(ownCpuMs() - cpu0);
}

/** The per-sample layout every minute costs the same; the others are measured over a heartbeat cycle. */
export async function benchFleetMinute(minutes = 15): Promise<Record<string, unknown>> {
  const perSample = summary(await withDynalite((d) => runMinutes(d, perSampleLayout, 3)));
  const pages = summary(await withDynalite((d) => runMinutes(d, samplePages, minutes)));
  const now = summary(await withDynalite((d) => runMinutes(d, batched, minutes)));
  const real = summary(await withDynalite((d) => runMinutes(d, throughIngestBatch(), minutes)));
  const out = {
    workload: {
      hypervisors: HOSTS,
      vms: VMS,
      messages_per_minute: HOSTS,
      samples_per_report: 1,
      messages_per_sqs_batch: SQS_BATCH,
    },
    per_sample_layout: perSample,
    sample_pages: pages,
    batched: now,
    through_ingest_batch: real,
    speedup_over_sample_pages: round(pages.cpu_ms_per_minute / now.cpu_ms_per_minute, 1),
    speedup_over_per_sample_layout: round(perSample.cpu_ms_per_minute / now.cpu_ms_per_minute, 1),
    parse_cpu_ms_per_minute: parseCpuMs(),
  };
  process.stdout.write(
    `fleet minute (${HOSTS} hosts, ${VMS} VMs), mean over ${now.minutes_measured} minutes: ` +
      `${perSample.cpu_ms_per_minute} CPU ms per-sample layout, ${pages.cpu_ms_per_minute} sample pages, ` +
      `${now.cpu_ms_per_minute} batched with host skips (×${out.speedup_over_sample_pages}); ` +
      `${real.cpu_ms_per_minute} through ingestBatch, parsing included\n`,
  );
  return out;
}
