/**
 * The scale bench's sample window, stored as ingest stores it, in minutes instead of an hour at
 * 10,000 hosts: the reports are built once (no SQS, no JSON per message) and written with ingest's
 * own store functions, many at once. Each host sends one message a minute and ingest writes a
 * batch of `batchHosts` messages' pages (and their window digests) together; the seed writes the
 * same batches, so the digests are the very items ingest makes (test/bench/seedWindow.test.ts
 * checks every stored item against ingestBatch's). Each host's reports are parsed once, all
 * minutes together, so they carry what parsing adds (e.g. an assumed service status). What
 * differs from ingest is only how the writes are sent:
 * - host states: putHostReport, as ingest, once per host (its later minutes' reports, with the
 *   same reported_at, would be stale and write nothing);
 * - instance states: instanceStateItem, the item ingest's conditional PutItem writes into an
 *   empty table, sent by BatchWriteItem, 25 a call, instead of one PutItem each;
 * - pages and digests: putSamplePages per batch, as ingest, with batches in flight at once.
 */
import { newestReportAt } from '../lib/ingest/batchWrites.js';
import { REPORT_SCHEMA_VERSION } from '../lib/model/reportSchema.js';
import { type HypervisorReport, type InstanceReport, parseReportMessage } from '../lib/model/reports.js';
import { batchPut } from '../lib/store/batchWriter.js';
import { mapLimit } from '../lib/store/concurrency.js';
import type { FleetStore } from '../lib/store/fleetStore.js';
import { instanceStateItem } from '../lib/store/instanceWrites.js';
import { TABLES } from '../lib/store/tables.js';

export interface SeedFleet {
  hypervisors: HypervisorReport[];
  instances: InstanceReport[];
}

export interface SeedOptions {
  /** Messages (hosts) per ingest batch: the stack's ingestBatchSize. */
  batchHosts: number;
  /** Requests in flight at once. */
  concurrency: number;
}

/** The messages of minute `m` (each host's and its VMs' m-th sample), in ingest batches. */
export function minuteBatches(fleet: SeedFleet, m: number, batchHosts: number): SeedFleet[][] {
  const byHost = vmsByHost(fleet.instances);
  const batches: SeedFleet[][] = [];
  for (let b = 0; b < fleet.hypervisors.length; b += batchHosts) {
    batches.push(
      fleet.hypervisors.slice(b, b + batchHosts).map((h) => ({
        hypervisors: [{ ...h, samples: h.samples.slice(m, m + 1) }],
        instances: (byHost.get(h.host) ?? []).map((i) => ({ ...i, samples: i.samples.slice(m, m + 1) })),
      })),
    );
  }
  return batches;
}

/** Minutes of samples the fleet carries (each report the same number). */
export const seedMinutes = (fleet: SeedFleet): number =>
  Math.max(fleet.instances[0]?.samples.length ?? 0, fleet.hypervisors[0]?.samples.length ?? 0);

/** A message body as an agent sends it: the host state flat, beside its zone, time and samples. */
export function messageBody(message: SeedFleet): string {
  const hypervisors = message.hypervisors.map(({ state, availability_zone, reported_at, samples }) => ({
    ...state,
    availability_zone,
    reported_at,
    samples,
  }));
  return JSON.stringify({ schema_version: REPORT_SCHEMA_VERSION, hypervisors, instances: message.instances });
}

/** The fleet's reports as ingest would parse them: one message per host, every minute's samples in it. */
export function parsedFleet(fleet: SeedFleet, now: Date): SeedFleet {
  const byHost = vmsByHost(fleet.instances);
  const out: SeedFleet = { hypervisors: [], instances: [] };
  for (const h of fleet.hypervisors) {
    const body = messageBody({ hypervisors: [h], instances: byHost.get(h.host) ?? [] });
    const message = parseReportMessage(body, now, `seed ${h.host}`);
    out.hypervisors.push(...message.hypervisors);
    out.instances.push(...message.instances);
  }
  return out;
}

/**
 * Stores the fleet's states and every minute of its samples, then the ingest watermark; `now` is
 * the ingest clock the reports are checked against.
 */
export async function seedWindow(
  store: FleetStore,
  generated: SeedFleet,
  now: Date,
  options: SeedOptions,
): Promise<void> {
  const { ctx } = store;
  const fleet = parsedFleet(generated, now);
  await mapLimit(fleet.hypervisors, options.concurrency, (h) => store.putHostReport(h));
  const written = ctx.clock.now();
  const items = fleet.instances.map((i) => instanceStateItem(ctx, i, i.last_migrated_at ?? null, written));
  await batchPut(ctx.doc, TABLES.instances, ctx.tables.instances, items, {
    concurrency: options.concurrency,
  });
  for (let m = 0; m < seedMinutes(fleet); m++) {
    await mapLimit(minuteBatches(fleet, m, options.batchHosts), options.concurrency, async (batch) => {
      const written = await store.putSamplePages(batch.flatMap((message) => store.samplePages(message)));
      if (written.failures.length > 0) throw new Error('seedWindow: sample pages not written');
    });
  }
  await store.noteIngested(newestReportAt(fleet));
}

function vmsByHost(instances: InstanceReport[]): Map<string, InstanceReport[]> {
  const out = new Map<string, InstanceReport[]>();
  for (const i of instances) {
    const list = out.get(i.host);
    if (list) list.push(i);
    else out.set(i.host, [i]);
  }
  return out;
}
