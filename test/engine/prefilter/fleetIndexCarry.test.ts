import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../../lib/config/options.js';
import type { ScheduleDecision } from '../../../lib/engine/explain.js';
import { Fleet } from '../../../lib/engine/fleet.js';
import type { HostGrouping, HostGroups } from '../../../lib/engine/hostGroups.js';
import { type FleetIndex, fleetIndex } from '../../../lib/engine/prefilter/fleetIndex.js';
import { ResourceFit } from '../../../lib/engine/prefilter/resources.js';
import { seededRandom } from '../../../lib/engine/random.js';
import { createScheduler } from '../../../lib/engine/registry.js';
import type { HostState } from '../../../lib/model/hostState.js';
import type { RequestSpec } from '../../../lib/model/requestSpec.js';
import { makeConfig, makeHost, makeSpec } from '../../helpers/factories.js';

/**
 * A fleet index carried over to a fleet with some hosts replaced (Fleet.withReplaced, as a snapshot
 * refresh does) answers, and decides, exactly as a fresh index of the same hosts: over generated
 * fleets whose previous index was asked 0 to 3 times, and replacements that change usage,
 * aggregate membership, traits, names' case, the host's own zone, disabled and down services.
 */

const ZONES = ['az-a', 'az-b', 'az-c'];
const NOW = new Date('2026-12-01T12:00:00Z');
const SEEN_UP = '2026-12-01T11:59:50Z';
const LONG_AGO = '2026-12-01T10:00:00Z';

type Rnd = () => number;
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];

const CAPACITY = { total_usable_ram_mb: 32768, total_usable_disk_gb: 200, vcpus_total: 16 };

/** What a host has in use: some hosts overcommitted (negative free RAM, more vCPUs used than there are). */
const usageOf = (rnd: Rnd) => ({
  free_ram_mb: Math.floor(rnd() * 32768) - 1024,
  free_disk_mb: Math.floor(rnd() * 200_000),
  vcpus_used: Math.floor(rnd() * 20),
  num_instances: Math.floor(rnd() * 20),
  num_io_ops: Math.floor(rnd() * 8),
});

/** Host `i` with random usage, one of 3 zones and 6 racks, a few traits; sometimes disabled or down. */
function hostAt(i: number, rnd: Rnd, name = `h${i}`): HostState {
  const zone = pick(rnd, ZONES);
  const rack = Math.floor(rnd() * 6);
  const traits = ['HW_CPU_X86_AVX2', ...(rnd() < 0.3 ? ['CUSTOM_FAST'] : [])];
  if (rnd() < 0.05) traits.push('COMPUTE_STATUS_DISABLED');
  const service = { disabled: rnd() < 0.05, up: true, forced_down: rnd() < 0.03 };
  const membership: { name: string; metadata: Record<string, string> }[] = [
    { name: `zone-${zone}`, metadata: { availability_zone: zone } },
    { name: `rack-${rack}`, metadata: { rack: String(rack) } },
  ];
  return makeHost({
    ...CAPACITY,
    ...usageOf(rnd),
    host: name,
    nodename: `n${i}`,
    service: { ...service, last_seen_up: rnd() < 0.05 ? LONG_AGO : SEEN_UP },
    availability_zone: rnd() < 0.1 ? zone : null,
    traits,
    aggregates: membership,
  });
}

/** Replacements for `count` random positions: a new report of the same node, changed in some way. */
function replacementsOf(hosts: readonly HostState[], count: number, rnd: Rnd): Map<number, HostState> {
  const out = new Map<number, HostState>();
  for (let k = 0; k < count; k++) {
    const i = Math.floor(rnd() * hosts.length);
    const was = hosts[i];
    const kind = rnd();
    if (kind < 0.4) {
      // A claim or a report with other usage: nothing indexed by membership changes.
      out.set(i, { ...was, free_ram_mb: was.free_ram_mb - 1024, vcpus_used: was.vcpus_used + 1 });
    } else if (kind < 0.5) {
      out.set(i, { ...was, service: { ...was.service, up: false, last_seen_up: LONG_AGO } });
    } else if (kind < 0.6) {
      out.set(i, { ...was, service: { ...was.service, disabled: !was.service.disabled } });
    } else if (kind < 0.7) {
      out.set(i, { ...was, host: was.host.toUpperCase() });
    } else {
      // Anything: another zone, rack, trait set, own zone field.
      out.set(i, hostAt(i, rnd, was.host));
    }
  }
  return out;
}

function configOf(placement: boolean): SchedulerConfig {
  return makeConfig({
    placid: { placement_prefilter: placement },
    filter_scheduler: {
      enabled_filters: ['AvailabilityZoneFilter', 'ComputeFilter', 'ComputeCapabilitiesFilter'],
      weight_classes: ['nova.scheduler.weights.all_weighers'],
    },
  });
}

function specOf(rnd: Rnd, id: string): RequestSpec {
  const extra: Record<string, string> = {};
  if (rnd() < 0.3) extra['trait:CUSTOM_FAST'] = pick(rnd, ['required', 'forbidden']);
  return makeSpec({
    request_id: id,
    flavor: {
      name: 'f',
      vcpus: pick(rnd, [1, 2, 4]),
      memory_mb: pick(rnd, [512, 4096, 16384]),
      root_gb: 10,
      extra_specs: extra,
    },
    availability_zone: rnd() < 0.5 ? pick(rnd, ZONES) : null,
    num_instances: rnd() < 0.2 ? 2 : 1,
  });
}

async function decide(config: SchedulerConfig, fleet: Fleet, spec: RequestSpec, explain: boolean) {
  return createScheduler(config).schedule(fleet, spec, { explain, random: seededRandom(5), now: NOW });
}

const outcome = (d: ScheduleDecision) => ({
  placements: d.placements.map((p) => [p.host.nodename, p.alternates.map((h) => h.nodename)]),
  counts: d.filter_counts,
  error: d.error,
  eliminated: d.eliminated(),
  weighed: d.weighed?.map((w) => [w.host.nodename, w.weight]) ?? null,
});

const BY_SERVICE: HostGrouping = { id: 'test-service', keys: [(h) => h.service] };
const BY_RAM: HostGrouping = { id: 'test-ram', keys: [(h) => h.free_ram_mb >= 0, (h) => h.vcpus_total] };

const plainGroups = (g: HostGroups) => ({ groupOf: [...g.groupOf], size: g.size, first: [...g.first] });

/** Everything an index answers, as plain data. */
function answers(index: FleetIndex, config: SchedulerConfig) {
  const n = index.size;
  const every = { positions: Int32Array.from({ length: n }, (_, i) => i), count: n };
  const { aggregates, traits, names } = index;
  const limits = index.fitLimits(new ResourceFit(config)).all();
  const rows = index.factRows(config, every);
  const inZoneA = Int16Array.from(aggregates.groups, (aggs) =>
    aggs.some((a) => a.metadata.availability_zone === 'az-a') ? -1 : 0,
  );
  return {
    aggregates: {
      groupOf: [...aggregates.groupOf],
      groups: aggregates.groups.map((aggs) => aggs.map((a) => a.name)),
      first: [...aggregates.first],
      sizes: [...aggregates.sizes],
      all: aggregates.aggregates.map((a) => a.name),
    },
    traits: {
      groupOf: [...traits.groupOf],
      groups: traits.groups.map((set) => [...set]),
      disabled: [...traits.disabled],
      anyDisabled: traits.anyDisabled,
    },
    names: { byHost: [...names.byHost], byNode: [...names.byNode] },
    zones: index.hostsReportZones,
    limits: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, [...v]])),
    rows: rows && [...rows],
    inZoneA: [...index.passingMembers(inZoneA)],
    byService: plainGroups(index.groups(BY_SERVICE, 'test')),
    byRam: plainGroups(index.groups(BY_RAM, 'test')),
  };
}

const caseInput = fc.record({
  n: fc.integer({ min: 1, max: 120 }),
  seed: fc.nat(10_000),
  asked: fc.integer({ min: 0, max: 3 }),
  replaced: fc.integer({ min: 0, max: 8 }),
  placement: fc.boolean(),
});

type CaseInput = typeof caseInput extends fc.Arbitrary<infer T> ? T : never;

interface Case {
  config: SchedulerConfig;
  rnd: Rnd;
  previous: Fleet;
  carried: Fleet;
  fresh: Fleet;
}

/** A fleet whose index was asked `asked` times, then carried over to `replaced` replacements. */
async function carriedCase(c: CaseInput, prime: boolean): Promise<Case> {
  const rnd = seededRandom(c.seed);
  const config = configOf(c.placement);
  const previous = Fleet.from(Array.from({ length: c.n }, (_, i) => hostAt(i, rnd)));
  if (prime) answers(fleetIndex(previous.hosts), config);
  for (let k = 0; k < c.asked; k++) {
    const d = await decide(config, previous, specOf(rnd, `w${k}`), rnd() < 0.5);
    // A released recording lets the fact rows be handed over; one held makes the carry copy them.
    if (rnd() < 0.5) d.release?.();
  }
  const carried = previous.withReplaced(replacementsOf(previous.hosts, c.replaced, rnd));
  // The same hosts in another array: indexed afresh.
  const fresh = Fleet.from(carried.hosts.slice());
  return { config, rnd, previous, carried, fresh };
}

describe('a carried fleet index', () => {
  it('answers as a fresh index of the same hosts', async () => {
    await fc.assert(
      fc.asyncProperty(caseInput, fc.boolean(), async (c, prime) => {
        // Prepare
        const { config, carried, fresh } = await carriedCase(c, prime);
        // Act
        const got = answers(fleetIndex(carried.hosts), config);
        // Assess
        expect(got).toEqual(answers(fleetIndex(fresh.hosts), config));
      }),
      { numRuns: 60 },
    );
  });

  it('decides as a fresh index does, explained and not, request after request', async () => {
    await fc.assert(
      fc.asyncProperty(caseInput, async (c) => {
        // Prepare
        const { config, rnd, carried, fresh } = await carriedCase(c, false);
        for (let k = 0; k < 3; k++) {
          const spec = specOf(rnd, `r${k}`);
          const explain = rnd() < 0.7;
          // Act
          const got = await decide(config, carried, spec, explain);
          const want = await decide(config, fresh, spec, explain);
          // Assess
          expect(outcome(got)).toEqual(outcome(want));
        }
      }),
      { numRuns: 40 },
    );
  });

  it("leaves the previous fleet's index answering as before", async () => {
    await fc.assert(
      fc.asyncProperty(caseInput, async (c) => {
        // Prepare
        const { config, rnd, previous, carried } = await carriedCase(c, true);
        const spec = specOf(rnd, 'p');
        const before = outcome(await decide(config, previous, spec, true));
        // Act: the carried index writes its replaced positions, then the previous one is asked again
        answers(fleetIndex(carried.hosts), config);
        await decide(config, carried, spec, true);
        // Assess
        expect(outcome(await decide(config, previous, spec, true))).toEqual(before);
        expect(answers(fleetIndex(previous.hosts), config)).toEqual(
          answers(fleetIndex(Fleet.from(previous.hosts.slice()).hosts), config),
        );
      }),
      { numRuns: 30 },
    );
  });

  it('shares the membership index when no replaced host changes it, and rebuilds it when one does', () => {
    // Prepare
    const rnd = seededRandom(7);
    const previous = Fleet.from(Array.from({ length: 20 }, (_, i) => hostAt(i, rnd)));
    const built = fleetIndex(previous.hosts).aggregates;
    const was = previous.hosts[3];
    const other = previous.hosts.findIndex((h) => h.aggregates !== was.aggregates);
    const moved = { ...was, aggregates: previous.hosts[other].aggregates };
    // Act
    const claimed = previous.withReplaced(new Map([[3, { ...was, free_ram_mb: was.free_ram_mb - 512 }]]));
    const regrouped = previous.withReplaced(new Map([[3, moved]]));
    // Assess
    expect(fleetIndex(claimed.hosts).aggregates).toBe(built);
    const rebuilt = fleetIndex(regrouped.hosts).aggregates;
    expect(rebuilt).not.toBe(built);
    expect(rebuilt.groupOf[3]).toBe(rebuilt.groupOf[other]);
  });

  it('copies the fact rows an unreleased recording reads, and hands them over once it is released', async () => {
    // Prepare
    const rnd = seededRandom(9);
    const config = configOf(true);
    const previous = Fleet.from(Array.from({ length: 40 }, (_, i) => hostAt(i, rnd)));
    const every = { positions: Int32Array.from({ length: 40 }, (_, i) => i), count: 40 };
    const held = await decide(config, previous, makeSpec({ request_id: 'held' }), true);
    const alike = await decide(
      config,
      Fleet.from(previous.hosts.slice()),
      makeSpec({ request_id: 'held' }),
      true,
    );
    const weighed = alike.weighed;
    const rows = fleetIndex(previous.hosts).factRows(config, every);
    const claim = (fleet: Fleet, host: HostState) => {
      const i = fleet.hosts.indexOf(host);
      return fleet.withReplaced(new Map([[i, { ...host, free_ram_mb: host.free_ram_mb - 2048 }]]));
    };
    // Act
    const copied = claim(previous, held.placements[0].host);
    await decide(config, copied, makeSpec({ request_id: 'next' }), false);
    const heldAfter = held.weighed;
    held.release?.();
    const copiedRows = fleetIndex(copied.hosts).factRows(config, every);
    const handed = claim(copied, copied.hosts[0]);
    // Assess
    expect(weighed?.length).toBeGreaterThan(1);
    expect(heldAfter).toEqual(weighed);
    expect(copiedRows).not.toBe(rows);
    // `copied`'s rows were lent to no recording: the next fleet takes them as they are.
    expect(fleetIndex(handed.hosts).factRows(config, every)).toBe(copiedRows);
  });

  it('starts afresh when the previous fleet was never indexed', () => {
    // Prepare
    const rnd = seededRandom(8);
    const previous = Fleet.from(Array.from({ length: 5 }, (_, i) => hostAt(i, rnd)));
    // Act
    const next = previous.withReplaced(new Map([[1, hostAt(1, rnd)]]));
    // Assess
    expect(next.hosts).toHaveLength(5);
    expect(next.hosts[0]).toBe(previous.hosts[0]);
    expect(next.hosts[1]).not.toBe(previous.hosts[1]);
    expect(fleetIndex(next.hosts).aggregates.sizes.reduce((a, b) => a + b, 0)).toBe(5);
  });
});
