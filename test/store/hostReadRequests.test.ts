/**
 * What one host read costs: the host's item and its sightings (hostSightings.ts), counted in the
 * client's middleware stack as DynamoDB would bill them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countDynamo } from '../../bench/dynamoCounter.js';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { HOST_CHANGE_SHARDS } from '../../lib/store/tables.js';
import { at, hypervisorDoc, message, NOW, type StoreHarness, startStore } from './fixtures.js';

let h: StoreHarness;
let counted: FleetStore;
let counter: ReturnType<typeof countDynamo>;
beforeAll(async () => {
  h = await startStore();
  // A client of its own, so only the reads under test are counted.
  const doc = createDocumentClient({ endpoint: h.local.endpoint });
  counter = countDynamo(doc);
  counted = new FleetStore({ ...h.store.ctx, doc });
});
afterAll(async () => {
  await h.local.close();
});
beforeEach(() => {
  h.setNow(NOW);
});

const setMinutes = (minutes: number) => h.setNow(new Date(NOW.getTime() + minutes * 60_000));

/** Reports `host`'s unchanged state at each of `minutes` (after NOW), as ingest would. */
async function reportEachMinute(host: string, minutes: number[]): Promise<void> {
  for (const minute of minutes) {
    setMinutes(minute);
    const parsed = message([hypervisorDoc({ host, nodename: host })]);
    const reports = parsed.hypervisors.map((r) => ({ ...r, reported_at: at(minute) }));
    await h.store.putReports({ ...parsed, hypervisors: reports });
  }
}

describe('host read requests', () => {
  it("reads a steady host's item and its newest sighting with one GetItem and one Query", async () => {
    // Prepare: state written at minute 20, unchanged reports sighted at minutes 21–30
    await reportEachMinute('steady-one', [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    setMinutes(30.5);
    counter.reset();
    // Act
    const host = await counted.getHost('steady-one');
    // Assess
    expect(host?.reported_at).toBe(at(20));
    expect(host?.seen_at).toBe(at(30));
    expect(counter.snapshot().requests).toEqual({ GetItem: 1, Query: 1 });
  });

  it('reads both hours when the lookback crosses an hour boundary, and finds the sighting before it', async () => {
    // Prepare: the last sighting is at 12:58; the read at 13:01 looks back to 12:56
    await reportEachMinute('across-hour', [55, 56, 57, 58]);
    setMinutes(61);
    counter.reset();
    // Act
    const host = await counted.getHost('across-hour');
    // Assess
    expect(host?.seen_at).toBe(at(58));
    expect(counter.snapshot().requests).toEqual({ GetItem: 1, Query: 2 });
  });

  it('reads the sightings of a change read with one Query beside its change shards', async () => {
    // Prepare
    await reportEachMinute('changed', [40, 41, 42]);
    setMinutes(42.5);
    counter.reset();
    // Act
    const changes = await counted.hostsChangedSince();
    // Assess: one Query per change shard (HOST_CHANGE_SHARDS) and one for the sightings
    expect(changes.sightings.get('changed\u0000changed')).toBe(at(42));
    expect(counter.snapshot().requests).toEqual({ Query: HOST_CHANGE_SHARDS + 1 });
  });
});
