/**
 * The differential test of issue 17: detection from the window digests decides exactly what the
 * full read (one node window per compute node) decides. Generated fleets are reported through the
 * real ingest stage on dynalite (messages of one to four minutes, dropped, redelivered and shuffled;
 * samples jittered across minute and window edges, values made awkward; VMs that migrated within
 * the window), then read both ways: the fleets, the detections and the plans must be equal.
 */
import type { SQSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateFleet, HOST_STEAL_VARIANTS } from '../../bench/generateFleet.js';
import { defaultConfig } from '../../lib/config/options.js';
import { type Observed, readFleet } from '../../lib/detector/fleetRead.js';
import { reconcile } from '../../lib/detector/index.js';
import { seededRandom } from '../../lib/engine/random.js';
import { ingestBatch } from '../../lib/ingest/ingestBatch.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { toSqsRecord } from '../../lib/local/sqsRecord.js';
import type { HostSample, InstanceReport, InstanceSample } from '../../lib/model/reports.js';
import type { SampleSeries } from '../../lib/model/sampleSeries.js';
import { detect } from '../../lib/rebalance/detect.js';
import type { FleetInput } from '../../lib/rebalance/fleetInput.js';
import { planRebalance } from '../../lib/rebalance/planner.js';
import { defaultRebalanceSettings, type RebalanceSettings } from '../../lib/rebalance/settings.js';
import type { FleetStore } from '../../lib/store/fleetStore.js';
import { markDigestsWritten } from '../../lib/store/windowCoverage.js';
import { samplesOf } from '../model/seriesSamples.js';
import { storeWithOwnTables, useStore } from '../store/fixtures.js';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const h = useStore();

const NOW = new Date('2026-12-01T12:00:00Z');
const MINUTES = 13; // samples from 12 minutes before NOW up to NOW: the window's start is inside
const QUEUE = { arn: 'arn:aws:sqs:us-east-1:000000000000:reports', region: 'us-east-1', senderId: 'TEST' };
const settings: RebalanceSettings = { ...defaultRebalanceSettings(), mode: 'recommend' };

const caseArb = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  hosts: fc.integer({ min: 3, max: 4 }),
  vmsPerHost: fc.integer({ min: 8, max: 12 }),
  /** Added to every VM's steal: from none to enough that calm VMs suffer too. */
  stealBoost: fc.constantFrom(0, 0, 5, 12),
  contendedShare: fc.constantFrom(0.4, 0.5, 0.6),
  hostSteal: fc.constantFrom(...HOST_STEAL_VARIANTS),
  /** Messages cover this many minutes each (agents may batch). */
  minutesPerMessage: fc.integer({ min: 1, max: 4 }),
  dropShare: fc.constantFrom(0, 0.1, 0.25),
  redeliverShare: fc.constantFrom(0, 0.3),
  /** Deliver in random order (else newest first: a host's first stored report, which the write memo keeps, is its newest). */
  shuffle: fc.boolean(),
  batch: fc.integer({ min: 1, max: 6 }),
  migrated: fc.integer({ min: 0, max: 2 }),
  /** Share of samples stamped exactly on (or 1 ms beside) a minute: bucket and window edges. */
  edgeShare: fc.constantFrom(0, 0.3, 1),
  previouslySufferingShare: fc.constantFrom(0, 0.5),
});
type Case = ValueOf<typeof caseArb>;

/** The messages an agent per host sends for the case's fleet, in the order the queue delivers them. */
function deliveries(c: Case): { bodies: string[]; fleet: FleetInput; uuids: string[] } {
  const random = seededRandom(c.seed);
  const fleet = generateFleet({
    hosts: c.hosts,
    vms: c.hosts * c.vmsPerHost,
    zones: 1,
    seed: c.seed,
    contendedShare: c.contendedShare,
    hostSteal: c.hostSteal,
    now: NOW,
  });
  // Off the minute by up to 40 s, or (edgeShare) on it to the millisecond or one off: minute m is
  // a bucket edge, and minutes 0, 10 and 11 are the window's end, its start and the read's start.
  const jitter = (minute: number) => {
    const off = random() < c.edgeShare ? Math.floor(random() * 3) - 1 : Math.round((random() - 0.5) * 80_000);
    return new Date(NOW.getTime() - minute * 60_000 + off).toISOString();
  };
  const awkward = (v: number, max: number) => (random() < 0.5 ? Math.min(max, v + random() / 3) : v);
  // Per minute (0 = NOW, back to MINUTES - 1), each VM's and host's sample, reusing the generated ten.
  const vmSample = (vm: InstanceReport, m: number): InstanceSample => {
    const s = vm.samples[m % vm.samples.length];
    return {
      ...s,
      ts: jitter(m),
      steal_percent: awkward(s.steal_percent, 100),
      load5: awkward(s.load5, 1e6),
    };
  };
  // A few VMs moved `split` minutes ago: before that they reported from the next host.
  const movers = new Map<string, { from: string; split: number }>();
  for (let i = 0; i < c.migrated && i < fleet.instances.length; i++) {
    const vm = fleet.instances[Math.floor(random() * fleet.instances.length)];
    const other = fleet.hypervisors.find((x) => x.host !== vm.host);
    if (other) movers.set(vm.uuid, { from: other.host, split: 1 + Math.floor(random() * 8) });
  }
  const bodies: string[] = [];
  for (const hyp of fleet.hypervisors) {
    for (let first = 0; first < MINUTES; first += c.minutesPerMessage) {
      if (random() < c.dropShare) continue;
      const minutes = Array.from(
        { length: Math.min(c.minutesPerMessage, MINUTES - first) },
        (_, i) => first + i,
      );
      const reportedAt = jitter(first);
      const hostSamples: HostSample[] = hyp.samples.length
        ? minutes.map((m) => ({ ...hyp.samples[m % hyp.samples.length], ts: jitter(m) }))
        : [];
      const instances = fleet.instances.flatMap((vm) => {
        const move = movers.get(vm.uuid);
        const mine = minutes.filter((m) => (move && m >= move.split ? move.from : vm.host) === hyp.host);
        if (mine.length === 0) return [];
        const moved = move && mine[0] < move.split;
        const lastMigratedAt = moved ? new Date(NOW.getTime() - move.split * 60_000 + 1).toISOString() : null;
        return [
          {
            ...vm,
            host: hyp.host,
            nodename: hyp.nodename,
            availability_zone: hyp.availability_zone,
            last_migrated_at: lastMigratedAt,
            reported_at: reportedAt,
            samples: mine.map((m) => vmSample(vm, m)),
          },
        ];
      });
      const hypervisor = { ...hyp.state, availability_zone: hyp.availability_zone, reported_at: reportedAt };
      bodies.push(
        JSON.stringify({
          schema_version: 1,
          hypervisors: [{ ...hypervisor, samples: hostSamples }],
          instances,
        }),
      );
    }
  }
  const redelivered = bodies.filter(() => random() < c.redeliverShare);
  const all = [...bodies, ...redelivered]
    .map((b, i) => ({ b, key: c.shuffle ? random() : i }))
    .sort((x, y) => x.key - y.key);
  return { bodies: all.map((x) => x.b), fleet, uuids: fleet.instances.map((vm) => vm.uuid) };
}

async function ingest(store: FleetStore, bodies: readonly string[], batch: number): Promise<void> {
  const deadLetter = new LocalSqsQueue({ name: 'dlq' });
  let serial = 0;
  for (let i = 0; i < bodies.length; i += batch) {
    const event: SQSEvent = {
      Records: bodies.slice(i, i + batch).map((body) =>
        toSqsRecord(
          {
            messageId: `m${++serial}`,
            body,
            attributes: {},
            sentTimestamp: 0,
            receiveCount: 1,
            visibleAt: 0,
          },
          QUEUE,
        ),
      ),
    };
    const result = await ingestBatch(event, {
      store,
      deadLetter,
      clock: { now: () => NOW.getTime() + 60_000 },
    });
    expect([result.response.batchItemFailures, result.rejections]).toEqual([[], []]);
  }
}

/** A store whose digests began an hour before NOW, with the case's messages ingested. */
async function ingested(c: Case): Promise<{ store: FleetStore; uuids: string[] }> {
  let clock = new Date(NOW.getTime() - 3_600_000);
  const store = await storeWithOwnTables(h, { clock: { now: () => clock.getTime() } });
  await markDigestsWritten(store.ctx);
  clock = NOW;
  const { bodies, uuids } = deliveries(c);
  await ingest(store, bodies, c.batch);
  return { store, uuids };
}

/** The observations with each series as sample objects. */
function withSampleObjects(observed: Observed): Observed {
  const objects = (samples: Observed['vms'][number]['samples']) =>
    Array.isArray(samples) ? samples : samplesOf(samples as SampleSeries);
  return {
    hosts: observed.hosts.map((host) => ({ ...host, samples: objects(host.samples) })),
    vms: observed.vms.map((vm) => ({ ...vm, samples: objects(vm.samples) })),
  };
}

const read = async (store: FleetStore, full: boolean) =>
  readFleet({
    store,
    hosts: await store.listHosts(),
    now: NOW,
    settings,
    config: defaultConfig(),
    concurrency: 4,
    full,
  });

/** A fleet known to suffer and plan moves: every property run includes it, so the check is never vacuous. */
const MIGRATING_CASE: Case = {
  seed: 17,
  hosts: 4,
  vmsPerHost: 12,
  stealBoost: 0,
  contendedShare: 0.5,
  hostSteal: 'absent',
  minutesPerMessage: 2,
  dropShare: 0,
  redeliverShare: 0.3,
  shuffle: false,
  batch: 5,
  migrated: 1,
  edgeShare: 0.3,
  previouslySufferingShare: 0,
};

describe('detection from window digests', () => {
  it('reads the same fleet, detects the same and plans the same as the full read (property)', async () => {
    const seen = { suffering: 0, migrations: 0 };
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        // Prepare
        const { store, uuids } = await ingested(c);
        const previouslySuffering = uuids.filter(
          (_, i) => (i * 7919) % 100 < c.previouslySufferingShare * 100,
        );
        // Act
        const [reference, digested] = [await read(store, true), await read(store, false)];
        // Assess
        expect([reference.windowSource, digested.windowSource]).toEqual(['full', 'digests']);
        const { windowSource: _r, observed: referenceObserved, ...referenceFleet } = reference;
        const { windowSource: _d, observed: digestedObserved, ...digestedFleet } = digested;
        expect(digestedFleet).toEqual(referenceFleet);
        // The reference detects from sample objects (as a report or FLEET.json gives them), the
        // digest read from the series it read: the windows hold the same samples.
        const referenceSamples = withSampleObjects(referenceObserved);
        expect(withSampleObjects(digestedObserved)).toEqual(referenceSamples);
        const decide = async (fleet: FleetInput, observed: Observed) => {
          const detection = detect({ now: NOW, ...observed, previouslySuffering }, settings);
          const plan = await planRebalance({ fleet: { ...fleet, previouslySuffering }, settings, detection });
          return { detection, plan };
        };
        const want = await decide(referenceFleet, referenceSamples);
        const got = await decide(digestedFleet, digestedObserved);
        expect(got.detection).toEqual(want.detection);
        expect(got.plan).toEqual(want.plan);
        seen.suffering += want.detection.suffering.length;
        seen.migrations += want.plan.migrations.length;
      }),
      { numRuns: 6, examples: [[MIGRATING_CASE]] },
    );
    // Not vacuous: the generated fleets had VMs suffering and moves planned.
    expect(seen.suffering).toBeGreaterThan(0);
    expect(seen.migrations).toBeGreaterThan(0);
  });

  it('makes the same plan in a detector run as a run told to read every window', async () => {
    // Prepare: one fleet, ingested twice into separate stores
    const c = MIGRATING_CASE;
    const [a, b] = [await ingested(c), await ingested(c)];
    const logs: Record<string, unknown>[] = [];
    const deps = (store: FleetStore, fullRead: boolean) => ({
      store,
      planQueue: new LocalSqsQueue({ name: 'plans' }),
      settings,
      config: defaultConfig(),
      clock: { now: () => NOW.getTime() },
      fullRead,
      logger: {
        info: (_: string, attrs?: Record<string, unknown>) => logs.push(attrs ?? {}),
        warn: () => {},
      },
    });
    // Act
    const full = await reconcile(deps(a.store, true));
    const digested = await reconcile(deps(b.store, false));
    // Assess
    expect(logs.filter((l) => 'windows' in l).map((l) => l.windows)).toEqual(['full', 'digests']);
    expect(full.plan?.migrations.length).toBeGreaterThan(0);
    expect(digested.suffering).toBe(full.suffering);
    expect(digested.plan?.migrations).toEqual(full.plan?.migrations);
    expect(digested.plan?.plan_id).toBe(full.plan?.plan_id);
  });
});
