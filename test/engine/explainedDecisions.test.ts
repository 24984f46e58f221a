import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import { decisionJson } from '../../lib/engine/decisionJson.js';
import type { ScheduleDecision } from '../../lib/engine/explain.js';
import {
  BY_AGGREGATES,
  defineFilter,
  type HostFilter,
  PASS,
  reject,
  type Verdict,
} from '../../lib/engine/filter.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { seededRandom } from '../../lib/engine/random.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { HostState } from '../../lib/model/hostState.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';
import { withPlacidFilters } from '../../lib/rebalance/filters/index.js';
import type { MoveContext } from '../../lib/rebalance/moveContext.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * Explained decisions are the unexplained run, recorded. Over fleets of up to 1,000 hosts with
 * more than 64 aggregate memberships, Placid's own move filters and plug-in filters (grouped and
 * not): both give the same answer; the recording accounts for every host exactly once, agrees with
 * the per-filter counts, and its capped view is the head of its full lists; and the grouping hints
 * change nothing.
 */

const RACKS = 90;
const ZONES = ['az-a', 'az-b', 'az-c'];

/** Host i: one of 3 zones and one of 90 racks (270 memberships), varied free resources. */
function fleetOf(n: number, seed: number): HostState[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const rack = Math.floor(rnd() * RACKS);
    const zone = ZONES[Math.floor(rnd() * ZONES.length)];
    return makeHost({
      host: `h${i}`,
      nodename: `n${i}`,
      free_ram_mb: Math.floor(rnd() * 65536) - 1024,
      total_usable_ram_mb: 65536,
      free_disk_mb: Math.floor(rnd() * 400_000),
      total_usable_disk_gb: 400,
      vcpus_total: 32,
      vcpus_used: Math.floor(rnd() * 40),
      num_instances: Math.floor(rnd() * 30),
      service: { disabled: rnd() < 0.05, up: true },
      aggregates: [
        { name: `zone-${zone}`, metadata: { availability_zone: zone } },
        { name: `rack-${rack}`, metadata: { rack: String(rack) } },
      ],
    });
  });
}

const MULTIPLE = reject<number>((host, _spec, n) => `rack ${rackOf(host)} is a multiple of ${n}`);

/**
 * A plug-in written for an earlier release, still declaring `groupedBy` (now ignored): racks whose
 * number is a multiple of `every` fail.
 */
function rackFilter(every: number): HostFilter<number> {
  return defineFilter<number>({
    name: 'RackFilter',
    prepare: () => every,
    check: (host, _spec, n) => (Number(rackOf(host)) % n !== 0 ? PASS : MULTIPLE),
    groupedBy: () => BY_AGGREGATES,
  });
}

/** A plug-in read host by host, answering false (as a JavaScript plug-in might) instead of a rejection. */
const BusyFilter = defineFilter<undefined>({
  name: 'BusyFilter',
  check: (host) => (host.num_instances < 25 ? PASS : (false as unknown as Verdict<undefined>)),
});

function rackOf(host: HostState): string {
  return host.aggregates.find((a) => a.metadata.rack !== undefined)?.metadata.rack ?? '';
}

/** A planned live migration of a VM in `zone`, seen by Placid's move filters. */
function moveSpec(input: Parameters<typeof makeSpec>[0], zone: string, n: number, seed: number): RequestSpec {
  const rnd = seededRandom(seed + 1);
  const loads = new Map<string, { capacityVcpus: number; demandVcpus: number }>();
  const roles = new Map<string, number>();
  const contended = new Set<string>();
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.9) loads.set(`h${i}`, { capacityVcpus: 32, demandVcpus: Math.floor(rnd() * 40) });
    if (r < 0.05) contended.add(`h${i}`);
    roles.set(`h${i}`, Math.floor(rnd() * 3));
  }
  const placid: MoveContext = {
    vm: { uuid: 'vm-1', availabilityZone: zone, role: 'web', demandVcpus: 2 },
    limits: { hostStealThresholdPercent: 10, maxSameRolePerHost: 2 },
    fleet: {
      load: (host) => loads.get(host),
      contended: (host) => contended.has(host),
      roleCounts: () => roles,
    },
  };
  return { ...makeSpec(input), placid } as RequestSpec;
}

const FILTERS = [
  'SameAvailabilityZoneFilter',
  'ComputeFilter',
  'RackFilter',
  'HostStealFilter',
  'BusyFilter',
  'RoleSpreadFilter',
];

function configOf(placement: boolean, subset: number): SchedulerConfig {
  return makeConfig({
    placid: { placement_prefilter: placement },
    filter_scheduler: {
      enabled_filters: FILTERS,
      weight_classes: ['nova.scheduler.weights.all_weighers'],
      host_subset_size: subset,
    },
  });
}

async function decide(
  config: SchedulerConfig,
  filters: HostFilter<unknown>[],
  fleet: Fleet,
  spec: RequestSpec,
  explain: boolean,
): Promise<ScheduleDecision> {
  return createScheduler(config, withPlacidFilters({ filters })).schedule(fleet, spec, {
    explain,
    random: seededRandom(3),
    now: new Date('2026-12-01T12:00:00Z'),
  });
}

const answer = (d: ScheduleDecision) => ({
  placements: d.placements.map((p) => [p.host.nodename, p.alternates.map((h) => h.nodename)]),
  counts: d.filter_counts,
  error: d.error,
});

const PREFILTER_STAGES = /^(Placement|compute_status_filter|in_tree|map_az|isolate|require|member_of)/;

/** The recording's checks: every host once, per-filter tallies = counts, capped view = heads. */
function expectConsistentRecording(d: ScheduleDecision, fleet: Fleet, instances: number): void {
  const eliminated = d.eliminated();
  const weighed = d.weighed ?? [];
  for (const e of eliminated) expect(e.reason.length).toBeGreaterThan(0);
  if (instances === 1) {
    // One instance: each host is either eliminated once or weighed.
    const seen = [...eliminated.map((e) => e.nodename), ...weighed.map((w) => w.host.nodename)];
    if (d.weighed !== null) expect(seen.sort()).toEqual(fleet.hosts.map((h) => h.nodename).sort());
  }
  for (const c of d.filter_counts) {
    const removed = eliminated.filter((e) =>
      c.filter === 'Placement'
        ? PREFILTER_STAGES.test(e.filter)
        : e.filter === c.filter && e.instance_index === c.instance_index,
    ).length;
    expect({ filter: c.filter, removed }).toEqual({ filter: c.filter, removed: c.start - c.end });
  }
  const top = d.explainedTop!(7);
  expect(top.eliminated).toEqual(eliminated.slice(0, 7));
  expect(top.eliminatedTotal).toBe(eliminated.length);
  expect(top.weighed).toEqual(weighed.slice(0, 7));
  expect(top.weighedTotal).toBe(weighed.length);
  expect(d.eliminated(5)).toEqual(eliminated.slice(0, 5));
}

const caseInput = fc.record({
  n: fc.integer({ min: 1, max: 250 }),
  seed: fc.nat(1000),
  zone: fc.constantFrom(...ZONES),
  every: fc.integer({ min: 2, max: 5 }),
  vcpus: fc.integer({ min: 1, max: 16 }),
  memory: fc.constantFrom(512, 4096, 32768),
  instances: fc.integer({ min: 1, max: 3 }),
  placement: fc.boolean(),
  subset: fc.integer({ min: 1, max: 3 }),
});

describe('explained decisions', () => {
  it('answer as unexplained ones do and record every removal, with Placid and plug-in filters', async () => {
    await fc.assert(
      fc.asyncProperty(caseInput, async (c) => {
        // Prepare
        const fleet = Fleet.from(fleetOf(c.n, c.seed));
        const config = configOf(c.placement, c.subset);
        const filters = [rackFilter(c.every), BusyFilter] as HostFilter<unknown>[];
        const flavor = { name: 'f', vcpus: c.vcpus, memory_mb: c.memory, root_gb: 10 };
        const spec = () => moveSpec({ flavor, num_instances: c.instances }, c.zone, c.n, c.seed);
        // Act
        const plain = await decide(config, filters, fleet, spec(), false);
        const explained = await decide(config, filters, fleet, spec(), true);
        // Assess
        expect(answer(explained)).toEqual(answer(plain));
        expect(plain.eliminated()).toEqual([]);
        expect(plain.weighed).toBeNull();
        expectConsistentRecording(explained, fleet, c.instances);
      }),
      { numRuns: 40 },
    );
  });

  it('decide over hosts as they are (Fleet.of) as over the same hosts laid out (Fleet.from)', async () => {
    await fc.assert(
      fc.asyncProperty(caseInput, async (c) => {
        // Prepare: each host with aggregate objects of its own, as a hosts file brings them
        const hosts = fleetOf(c.n, c.seed);
        const config = configOf(c.placement, c.subset);
        const filters = [rackFilter(c.every), BusyFilter] as HostFilter<unknown>[];
        const flavor = { name: 'f', vcpus: c.vcpus, memory_mb: c.memory, root_gb: 10 };
        const spec = () => moveSpec({ flavor, num_instances: c.instances }, c.zone, c.n, c.seed);
        // Act
        const asTheyAre = Fleet.of(hosts);
        const laidOut = await decide(config, filters, Fleet.from(hosts), spec(), true);
        const unshared = await decide(config, filters, asTheyAre, spec(), true);
        // Assess: the same hosts, and every host's outcome and words the same
        expect(asTheyAre.hosts.every((h, i) => h === hosts[i])).toBe(true);
        expect(decisionJson(unshared, c.instances)).toEqual(decisionJson(laidOut, c.instances));
      }),
      { numRuns: 40 },
    );
  });

  it('give the same answer whether or not a plug-in declares groupedBy (ignored), over 1,000 hosts', async () => {
    // Prepare
    const fleet = Fleet.from(fleetOf(1000, 11));
    const config = configOf(true, 2);
    const grouped = [rackFilter(3), BusyFilter] as HostFilter<unknown>[];
    const resolved = createScheduler(config, withPlacidFilters({ filters: grouped })).filters;
    // The same filters, every one asked host by host.
    const ungrouped = resolved.map((f) => ({ ...f, groupedBy: undefined }));
    const flavor = { name: 'f', vcpus: 2, memory_mb: 4096, root_gb: 10 };
    for (const zone of ZONES) {
      const spec = () => moveSpec({ flavor }, zone, 1000, 11);
      // Act
      const withHints = await decide(config, grouped, fleet, spec(), true);
      const without = await createScheduler(config, { filters: ungrouped }).schedule(fleet, spec(), {
        explain: true,
        random: seededRandom(3),
        now: new Date('2026-12-01T12:00:00Z'),
      });
      // Assess
      expect(answer(withHints)).toEqual(answer(without));
      expect(withHints.eliminated()).toEqual(without.eliminated());
      expect(withHints.placements).toHaveLength(1);
      expectConsistentRecording(withHints, fleet, 1);
    }
  });

  it('reports a filter that explains nothing by name', async () => {
    // Prepare
    const fleet = Fleet.from(fleetOf(40, 5));
    const config = configOf(false, 1);
    const spec = moveSpec({}, 'az-a', 40, 5);
    // Act
    const d = await decide(
      config,
      [rackFilter(1000), BusyFilter] as HostFilter<unknown>[],
      fleet,
      spec,
      true,
    );
    // Assess
    const busy = d.eliminated().filter((e) => e.filter === 'BusyFilter');
    expect(busy.length).toBeGreaterThan(0);
    expect(new Set(busy.map((e) => e.reason))).toEqual(new Set(['rejected by BusyFilter']));
  });
});
