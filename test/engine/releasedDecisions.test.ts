import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import { BufferLoan, BufferPool } from '../../lib/engine/bufferPool.js';
import { DecisionReleasedError } from '../../lib/engine/errors.js';
import type { ScheduleDecision } from '../../lib/engine/explain.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { seededRandom } from '../../lib/engine/random.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { Scheduler } from '../../lib/engine/scheduler.js';
import type { HostState } from '../../lib/model/hostState.js';
import type { RequestSpecInput } from '../../lib/model/requestSchema.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * An explained decision's recording borrows its arrays from the scheduler and gives them back on
 * release(): a released decision refuses every read of its explanation, and the decisions that
 * reuse its arrays (or are held alongside it) explain exactly what they would alone.
 */

/** Every host's size: 16 GB, 200 GB of disk, 16 vCPUs. */
const SIZE = { total_usable_ram_mb: 16384, total_usable_disk_gb: 200, vcpus_total: 16 };

/** `n` hosts in 2 zones, varied use: every stage removes some, many are weighed. */
function fleetOf(n: number): Fleet {
  const rnd = seededRandom(7);
  const upTo = (max: number) => Math.floor(rnd() * max);
  const use = () => ({ free_ram_mb: upTo(16384) - 512, free_disk_mb: upTo(200_000), vcpus_used: upTo(20) });
  const load = () => ({ num_instances: upTo(20), num_io_ops: upTo(6) });
  const zone = (i: number) => ({ name: `zone-${i % 2}`, metadata: { availability_zone: `az${i % 2}` } });
  const hostAt = (i: number): HostState =>
    makeHost({
      ...SIZE,
      ...use(),
      ...load(),
      host: `h${i}`,
      nodename: `n${i}`,
      service: { disabled: i % 13 === 0, up: true },
      aggregates: [zone(i)],
    });
  return Fleet.from(Array.from({ length: n }, (_, i) => hostAt(i)));
}

const config: SchedulerConfig = makeConfig({
  filter_scheduler: {
    enabled_filters: ['AvailabilityZoneFilter', 'ComputeFilter', 'IoOpsFilter'],
    weight_classes: ['nova.scheduler.weights.all_weighers'],
    host_subset_size: 1,
  },
});

/** Requests that take different paths: pre-filter and filters, a multi-create, a narrowed one. */
const REQUESTS: Partial<RequestSpecInput>[] = [
  { flavor: { name: 'a', vcpus: 2, memory_mb: 4096, root_gb: 10 }, availability_zone: 'az0' },
  { flavor: { name: 'b', vcpus: 1, memory_mb: 1024, root_gb: 50 }, num_instances: 3 },
  { flavor: { name: 'c', vcpus: 4, memory_mb: 2048, root_gb: 5 }, ignore_hosts: ['h3', 'h4', 'h10'] },
];

const fleet = fleetOf(60);

function schedule(scheduler: Scheduler, request: Partial<RequestSpecInput>): Promise<ScheduleDecision> {
  return scheduler.schedule(fleet, makeSpec(request), { explain: true, random: seededRandom(3) });
}

/** Everything the decision explains, as plain values. */
function explanation(d: ScheduleDecision) {
  const visited: string[] = [];
  d.eachElimination!((host, filter, index, reason) =>
    visited.push(`${host.host} ${filter} ${index} ${reason}`),
  );
  return {
    placements: d.placements.map((p) => p.host.nodename),
    weighed: d.weighed?.map((w) => ({ host: w.host.host, weight: w.weight, breakdown: w.breakdown })),
    ranked: d.rankedWeights!()?.map((w) => [w.host.host, w.weight]),
    byHost: [...(d.weightsByHost!() ?? new Map()).entries()].map(([h, w]) => [h.host, w]),
    eliminated: d.eliminated(),
    visited,
    top: d.explainedTop!(5),
  };
}

/** Each request explained by a scheduler of its own, which never reuses anything. */
async function alone(request: Partial<RequestSpecInput>) {
  return explanation(await schedule(createScheduler(config), request));
}

describe('released decisions', () => {
  it('refuse every read of their explanation, naming the read, and keep their placements', async () => {
    // Prepare
    const d = await schedule(createScheduler(config), REQUESTS[0]);
    const weighedBefore = d.weighed;
    expect(weighedBefore?.length).toBeGreaterThan(0);
    expect(d.eliminated().length).toBeGreaterThan(0);
    // Act
    d.release!();
    d.release!();
    // Assess
    const reads: [string, () => unknown][] = [
      ['weighed', () => d.weighed],
      ['eliminated()', () => d.eliminated()],
      ['eachElimination()', () => d.eachElimination!(() => {})],
      ['explainedTop()', () => d.explainedTop!(3)],
      ['weightsByHost()', () => d.weightsByHost!()],
      ['rankedWeights()', () => d.rankedWeights!()],
    ];
    for (const [read, fn] of reads) {
      expect(fn).toThrow(DecisionReleasedError);
      expect(fn).toThrow(
        `the decision was released, so its explanation can no longer be read (read: ${read})`,
      );
    }
    expect(d.placements).toHaveLength(1);
    expect(d.filter_counts.length).toBeGreaterThan(0);
    expect(d.error).toBeNull();
  });

  it('refuse reads after release when unexplained too, and keep their placements', async () => {
    // Prepare
    const scheduler = createScheduler(config);
    const d = await scheduler.schedule(fleet, makeSpec(REQUESTS[0]), { random: seededRandom(3) });
    // Act
    d.release!();
    // Assess
    expect(() => d.eliminated()).toThrow(DecisionReleasedError);
    expect(() => d.weighed).toThrow(DecisionReleasedError);
    expect(d.placements.map((p) => p.host.nodename)).toEqual((await alone(REQUESTS[0])).placements);
  });

  it('hand their arrays to later decisions, which explain exactly what they would alone', async () => {
    // Prepare
    const expected = await Promise.all(REQUESTS.map(alone));
    const scheduler = createScheduler(config);
    // Act: each request in turn, the previous decision released first, two of them still held.
    const held: ScheduleDecision[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < REQUESTS.length; i++) {
        const first = await schedule(scheduler, REQUESTS[i]);
        const second = await schedule(scheduler, REQUESTS[(i + 1) % REQUESTS.length]);
        // Assess: both held at once, then the first given back before the next pair.
        expect(explanation(first)).toEqual(expected[i]);
        expect(explanation(second)).toEqual(expected[(i + 1) % REQUESTS.length]);
        first.release!();
        if (round === 0) held.push(second);
        else second.release!();
      }
    }
    // The decisions never released were not written over by those that reused released arrays.
    held.forEach((d, i) => {
      expect(explanation(d)).toEqual(expected[(i + 1) % REQUESTS.length]);
    });
  });
});

describe('BufferPool', () => {
  it('lends a given-back buffer again, zeroed or copied at the asked length', () => {
    // Prepare
    const pool = new BufferPool();
    const first = new BufferLoan(pool);
    const ones = first.zeroed(Uint16Array, 300);
    ones.fill(1);
    const backing = ones.buffer;
    first.returnAll();
    // Act
    const second = new BufferLoan(pool);
    const zeros = second.zeroed(Uint16Array, 200);
    const copy = second.copyOf(Float64Array, new Float64Array([1.5, 2.5, 3.5]), 2);
    // Assess
    expect(zeros.buffer).toBe(backing);
    expect(zeros.length).toBe(200);
    expect(zeros.every((v) => v === 0)).toBe(true);
    expect([...copy]).toEqual([1.5, 2.5]);
    expect(copy.buffer).not.toBe(backing);
  });

  it('lends the smallest idle buffer that fits, and keeps a bounded amount idle', () => {
    // Prepare
    const pool = new BufferPool();
    const big = pool.take(64 * 1024);
    const small = pool.take(4 * 1024);
    pool.giveBack(big);
    pool.giveBack(small);
    // Act
    const taken = pool.take(3000);
    // Assess
    expect(taken).toBe(small);
    for (let i = 0; i < 100; i++) pool.giveBack(new ArrayBuffer(1024 * 1024));
    expect(pool.idleSize).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
