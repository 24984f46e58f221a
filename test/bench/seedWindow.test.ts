/**
 * The scale bench seeds its window fast (bench/seedWindow.ts); its detector figures hold only if
 * what it stores is what ingest stores. A small generated fleet goes both ways on dynalite, one
 * message per host and minute through the real ingest stage, and every item must match.
 */

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { generateFleet } from '../../bench/generateFleet.js';
import {
  messageBody,
  minuteBatches,
  type SeedFleet,
  seedMinutes,
  seedWindow,
} from '../../bench/seedWindow.js';
import { ingestBatch } from '../../lib/ingest/ingestBatch.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { toSqsRecord } from '../../lib/local/sqsRecord.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { NOW, storeWithOwnTables, useStore } from '../store/fixtures.js';

const h = useStore();
const QUEUE = { arn: 'arn:aws:sqs:us-east-1:000000000000:reports', region: 'us-east-1', senderId: 'TEST' };
const BATCH_HOSTS = 3;
const INGEST_NOW = new Date(NOW.getTime() + 5_000);

/** Every minute's batches through ingestBatch, oldest minute first, as the queue would deliver them. */
async function ingestAll(store: FleetStore, fleet: SeedFleet): Promise<void> {
  const deadLetter = new LocalSqsQueue({ name: 'dlq' });
  let serial = 0;
  for (let m = 0; m < seedMinutes(fleet); m++) {
    for (const batch of minuteBatches(fleet, m, BATCH_HOSTS)) {
      const records = batch.map((message) =>
        toSqsRecord(
          {
            messageId: `m${++serial}`,
            body: messageBody(message),
            attributes: {},
            sentTimestamp: 0,
            receiveCount: 1,
            visibleAt: 0,
          },
          QUEUE,
        ),
      );
      const event: SQSEvent = { Records: records };
      const result = await ingestBatch(event, {
        store,
        deadLetter,
        clock: { now: () => NOW.getTime() + 5_000 },
      });
      expect([result.response.batchItemFailures, result.rejections]).toEqual([[], []]);
    }
  }
}

/** A table's items, sorted by key, without the write time (the two stores write at other moments). */
async function items(store: FleetStore, table: 'hosts' | 'instances' | 'samples') {
  const { Items = [] } = await store.ctx.doc.send(new ScanCommand({ TableName: store.ctx.tables[table] }));
  return Items.map(({ updated_at: _u, ...rest }) => rest).sort((a, b) =>
    JSON.stringify([a.host ?? a.uuid ?? a.entity, a.nodename ?? a.ts]) <
    JSON.stringify([b.host ?? b.uuid ?? b.entity, b.nodename ?? b.ts])
      ? -1
      : 1,
  );
}

describe('seedWindow', () => {
  it('stores the same host, instance, page and digest items as ingest does from the messages', async () => {
    // Prepare: 7 hosts (batches of 3, 3 and 1), VMs moved and not, 10 minutes of samples
    const fleet = generateFleet({ hosts: 7, vms: 40, zones: 2, seed: 5, contendedShare: 0.4, now: NOW });
    const [seeded, ingested] = [await storeWithOwnTables(h), await storeWithOwnTables(h)];
    // Act
    await seedWindow(seeded, fleet, INGEST_NOW, { batchHosts: BATCH_HOSTS, concurrency: 4 });
    await ingestAll(ingested, fleet);
    // Assess
    for (const table of ['hosts', 'instances'] as const) {
      expect(await items(seeded, table)).toEqual(await items(ingested, table));
    }
    // Ingest also notes hosts it found unchanged (sightings); the seed writes each state once.
    const samples = (await items(ingested, 'samples')).filter((i) => !String(i.entity).startsWith('seen#'));
    const seededSamples = await items(seeded, 'samples');
    expect(seededSamples).toEqual(samples);
    expect(seededSamples.filter((i) => String(i.entity).startsWith('window/')).length).toBeGreaterThan(0);
    expect(await seeded.ingestWatermark()).toBe(await ingested.ingestWatermark());
  });
});
