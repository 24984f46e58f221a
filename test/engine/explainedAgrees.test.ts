import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SchedulerConfig } from '../../lib/config/options.js';
import type { ScheduleDecision } from '../../lib/engine/explain.js';
import { NOVA_FILTERS } from '../../lib/engine/filters/index.js';
import { Fleet } from '../../lib/engine/fleet.js';
import { seededRandom } from '../../lib/engine/random.js';
import { createScheduler } from '../../lib/engine/registry.js';
import type { HostStateInput } from '../../lib/model/hostSchema.js';
import type { RequestSpecInput } from '../../lib/model/requestSchema.js';
import { makeConfig, makeHost, makeSpec } from '../helpers/factories.js';

/**
 * Explained and unexplained decisions run the same steps; an explained one records what each step
 * removed. They must agree on everything both report, for any fleet and request.
 */

const ZONE_A = { name: 'zone-a', metadata: { availability_zone: 'az-a' } };
const ZONE_B = { name: 'zone-b', metadata: { availability_zone: 'az-b' } };
const SSD = { name: 'ssd', metadata: { storage: 'ssd' } };
const MIXED = { name: 'mixed', metadata: { storage: 'hdd, nvme', cpu_weight_multiplier: '2' } };
const HEAVY = { name: 'heavy', metadata: { ram_weight_multiplier: '-1' } };
/** Few memberships, so many hosts share one (the fast path groups hosts by it). */
const MEMBERSHIPS = [[], [ZONE_A, SSD], [ZONE_B, MIXED], [ZONE_A, HEAVY], [ZONE_B, SSD], [MIXED]];
const SERVICES = [
  { disabled: false, up: true },
  { disabled: false, up: true },
  { disabled: true, up: true },
  { disabled: false, up: false },
  { disabled: false, up: true, forced_down: true },
];
const TUPLES = [[['x86_64', 'kvm', 'hvm']], [['aarch64', 'qemu', 'hvm']], [], [['x86_64', 'xen', 'xen']]];
const MEMBERS = ['m1', 'm2', 'm3'];

const hostInput = fc.record({
  aggregates: fc.constantFrom(...MEMBERSHIPS),
  service: fc.constantFrom(...SERVICES),
  // Negative free amounts (all below a weigher's minval) and ties are where weighing is subtle.
  free_ram_mb: fc.constantFrom(-2048, -1, 0, 512, 8192, 8192, 65536),
  total_usable_ram_mb: fc.constantFrom(0, 16384, 65536),
  free_disk_mb: fc.constantFrom(-1024, 0, 5000, 400_000),
  total_usable_disk_gb: fc.constantFrom(0, 100, 400),
  disk_mb_used: fc.integer({ min: 0, max: 300_000 }),
  vcpus_total: fc.constantFrom(0, 8, 64),
  vcpus_used: fc.nat(200),
  cpu_allocation_ratio: fc.constantFrom(null, 1, 1.5, 16),
  ram_allocation_ratio: fc.constantFrom(null, 1, 1.5),
  num_io_ops: fc.nat(10),
  num_instances: fc.nat(60),
  failed_builds: fc.nat(3),
  hypervisor_type: fc.constantFrom('QEMU', 'kvm', 'xen'),
  hypervisor_version: fc.constantFrom(6000000, 8002000),
  supported_instances: fc.constantFrom(...TUPLES),
  availability_zone: fc.constantFrom(null, 'az-a', 'az-c'),
  stats: fc.constantFrom({}, { hypervisor_type: 'QEMU' }, { tier: 'gold' }),
  instances: fc.subarray(MEMBERS).map((uuids) => Object.fromEntries(uuids.map((uuid) => [uuid, { uuid }]))),
  traits: fc.subarray(['CUSTOM_FAST', 'HW_CPU_X86_AVX2']),
});

function fleetOf(inputs: readonly object[]) {
  return inputs.map((input, i) =>
    makeHost({ ...(input as Partial<HostStateInput>), host: `h${i % 7}`, nodename: `n${i}` }),
  );
}

const requestInput: fc.Arbitrary<Partial<RequestSpecInput>> = fc
  .record({
    vcpus: fc.integer({ min: 1, max: 16 }),
    memory_mb: fc.constantFrom(256, 2048, 8192, 1000.5),
    root_gb: fc.nat(60),
    specs: fc.subarray([
      ['aggregate_instance_extra_specs:storage', 'ssd'],
      ['storage', '<in> nvme'],
      ['capabilities:hypervisor_type', 'QEMU'],
      ['tier', 'gold'],
      ['trait:CUSTOM_FAST', 'required'],
    ]),
    arch: fc.constantFrom(undefined, 'x86_64', 'aarch64'),
    version: fc.constantFrom(undefined, '>=7.0'),
    zone: fc.constantFrom(undefined, 'az-a', 'az-b', 'az-c'),
    group: fc.constantFrom(undefined, 'affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity'),
    groupHosts: fc.subarray(['h1', 'h2']),
    num_instances: fc.integer({ min: 1, max: 3 }),
    force: fc.constantFrom<string[]>([], ['h2'], ['H3', 'h4']),
    ignore: fc.constantFrom<string[]>([], ['h1']),
  })
  .map((r) => ({
    flavor: {
      name: 'f',
      vcpus: r.vcpus,
      memory_mb: r.memory_mb,
      root_gb: r.root_gb,
      extra_specs: Object.fromEntries(r.specs),
    },
    image: {
      id: 'img',
      properties: {
        ...(r.arch ? { hw_architecture: r.arch } : {}),
        ...(r.version ? { img_hv_requested_version: r.version } : {}),
      },
    },
    ...(r.zone ? { availability_zone: r.zone } : {}),
    ...(r.group
      ? { instance_group: { policy: r.group, members: MEMBERS.slice(0, 2), hosts: r.groupHosts, rules: {} } }
      : {}),
    num_instances: r.num_instances,
    force_hosts: r.force,
    ignore_hosts: r.ignore,
  }));

const configInput = fc.record({
  placement: fc.boolean(),
  subset: fc.integer({ min: 1, max: 3 }),
  shuffle: fc.boolean(),
  allFilters: fc.boolean(),
  ram: fc.constantFrom(1, -1, 0),
  metrics: fc.boolean(),
});

type ConfigInput = typeof configInput extends fc.Arbitrary<infer T> ? T : never;

function configOf(c: ConfigInput) {
  return makeConfig({
    placid: { placement_prefilter: c.placement },
    filter_scheduler: {
      enabled_filters: c.allFilters
        ? Object.keys(NOVA_FILTERS)
        : [
            'AvailabilityZoneFilter',
            'AggregateInstanceExtraSpecsFilter',
            'ComputeFilter',
            'ComputeCapabilitiesFilter',
            'ImagePropertiesFilter',
            'ServerGroupAntiAffinityFilter',
            'ServerGroupAffinityFilter',
          ],
      weight_classes: ['nova.scheduler.weights.all_weighers'],
      host_subset_size: c.subset,
      shuffle_best_same_weighed_hosts: c.shuffle,
      ram_weight_multiplier: c.ram,
      image_props_weight_multiplier: 1,
    },
    metrics: c.metrics ? { weight_setting: ['cpu.percent=1.0'], required: false } : {},
  });
}

/** What both paths report: the placements with alternates, Nova's counts and the error. */
async function outcome(
  config: SchedulerConfig,
  fleet: Fleet,
  input: Partial<RequestSpecInput>,
  explain: boolean,
) {
  try {
    const d: ScheduleDecision = await createScheduler(config).schedule(fleet, makeSpec(input), {
      explain,
      random: seededRandom(7),
      now: new Date('2026-12-01T12:00:00Z'),
    });
    return {
      placements: d.placements.map((p) => [p.host.nodename, p.alternates.map((h) => h.nodename)]),
      counts: d.filter_counts,
      error: d.error,
    };
  } catch (err) {
    return { thrown: String(err) };
  }
}

describe('unexplained decisions', () => {
  it('place, count and fail exactly as explained decisions do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostInput, { minLength: 1, maxLength: 30, size: 'large' }),
        requestInput,
        configInput,
        async (hosts, request, c) => {
          // Prepare
          const fleet = Fleet.from(fleetOf(hosts));
          const config = configOf(c);
          // Act
          const fast = await outcome(config, fleet, request, false);
          const explained = await outcome(config, fleet, request, true);
          // Assess
          expect(fast).toEqual(explained);
        },
      ),
      { numRuns: 150 },
    );
  });
});
