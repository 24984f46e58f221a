import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountsByKind } from '../../../lib/engine/prefilter/resources.js';
import type { Aggregate, HostState } from '../../../lib/model/hostState.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeConfig, makeContext, makeSpec } from '../../helpers/factories.js';
import { computeHost, kept, removed } from './helpers.js';
import { placementPrefilter } from './placementPrefilter.js';

const agg = (name: string, metadata: Record<string, string>): Aggregate => ({
  name,
  uuid: `uuid-${name}`,
  hosts: [],
  metadata,
});
const AGGREGATES = [
  agg('zone1', { availability_zone: 'az1' }),
  agg('zone2', { availability_zone: 'az2' }),
  agg('tenant', { filter_tenant_id: 'p1' }),
  agg('isolated', { 'trait:CUSTOM_ISOLATED': 'required' }),
];

const ratio = fc.constantFrom(null, 1, 1.5, 4);
const host = fc.record({
  vcpus_total: fc.constantFrom(0, 4, 16),
  vcpus_used: fc.integer({ min: 0, max: 40 }),
  cpu_allocation_ratio: ratio,
  total_usable_ram_mb: fc.constantFrom(0, 2048, 16384),
  free_ram_mb: fc.integer({ min: -1024, max: 16384 }),
  ram_allocation_ratio: ratio,
  total_usable_disk_gb: fc.constantFrom(0, 10, 100),
  disk_mb_used: fc.integer({ min: 0, max: 120 * 1024 }),
  disk_allocation_ratio: ratio,
  disabled: fc.constantFrom(false, false, false, true),
  aggregates: fc.subarray(AGGREGATES),
  availability_zone: fc.constantFrom(null, 'az1', 'az3'),
  traits: fc.oneof(
    { weight: 3, arbitrary: fc.subarray(['CUSTOM_ISOLATED', 'HW_CPU_X86_AVX']) },
    { weight: 1, arbitrary: fc.constant(['COMPUTE_STATUS_DISABLED']) },
  ),
  gpus: fc.constantFrom(null, 0, 2),
});

const request = fc.record({
  vcpus: fc.integer({ min: 1, max: 8 }),
  memory_mb: fc.integer({ min: 256, max: 8192 }),
  root_gb: fc.integer({ min: 0, max: 20 }),
  availability_zone: fc.constantFrom(undefined, 'az1', 'az2', 'az3'),
  project_id: fc.constantFrom(undefined, 'p1', 'p2'),
  extra_specs: fc.subarray([
    ['trait:HW_CPU_X86_AVX', 'required'],
    ['trait:CUSTOM_ISOLATED', 'forbidden'],
    ['resources:CUSTOM_GPU', '1'],
  ]),
  forbidden: fc.subarray(['uuid-tenant', 'uuid-zone1']),
  destination: fc.constantFrom(undefined, undefined, 'h0', 'h1', 'unknown'),
  tenants: fc.boolean(),
  isolate: fc.boolean(),
});

type HostDraw = typeof host extends fc.Arbitrary<infer T> ? T : never;

function hostsFrom(inputs: HostDraw[]): HostState[] {
  return inputs.map((h, i) =>
    computeHost({
      host: `h${i}`,
      vcpus_total: h.vcpus_total,
      vcpus_used: h.vcpus_used,
      cpu_allocation_ratio: h.cpu_allocation_ratio,
      total_usable_ram_mb: h.total_usable_ram_mb,
      free_ram_mb: h.free_ram_mb,
      ram_allocation_ratio: h.ram_allocation_ratio,
      total_usable_disk_gb: h.total_usable_disk_gb,
      disk_mb_used: h.disk_mb_used,
      disk_allocation_ratio: h.disk_allocation_ratio,
      service: { disabled: h.disabled, up: true },
      aggregates: h.aggregates,
      availability_zone: h.availability_zone,
      traits: [...h.traits],
      inventories: h.gpus === null ? {} : { CUSTOM_GPU: { total: h.gpus, used: 0 } },
    }),
  );
}

/** The kept host names, or the error's class and message when the request cannot be answered. */
function outcome(
  hosts: HostState[],
  input: Partial<RequestSpecInput>,
  config: ReturnType<typeof makeConfig>,
  record: boolean,
) {
  try {
    return kept(placementPrefilter(hosts, makeSpec(input), makeContext(config, hosts), record));
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
}

describe('placementPrefilter without explanations', () => {
  it('keeps exactly the hosts the explained (host-by-host) scan keeps', () => {
    fc.assert(
      fc.property(fc.array(host, { maxLength: 12 }), request, (inputs, r) => {
        // Prepare
        const hosts = hostsFrom(inputs);
        const config = makeConfig({
          scheduler: {
            limit_tenants_to_placement_aggregate: r.tenants,
            enable_isolated_aggregate_filtering: r.isolate,
          },
        });
        const input: Partial<RequestSpecInput> = {
          flavor: {
            name: 'f',
            vcpus: r.vcpus,
            memory_mb: r.memory_mb,
            root_gb: r.root_gb,
            extra_specs: Object.fromEntries(r.extra_specs),
          },
          availability_zone: r.availability_zone,
          project_id: r.project_id,
          requested_destination: { host: r.destination, forbidden_aggregates: r.forbidden },
        };
        // Act
        const fast = outcome(hosts, input, config, false);
        const explained = outcome(hosts, input, config, true);
        // Assess
        expect(fast).toEqual(explained);
      }),
      { numRuns: 200 },
    );
  });

  it("decides a fleet's first request by the exact fit as its later ones by the fit limits", () => {
    fc.assert(
      fc.property(fc.array(host, { maxLength: 12 }), request, fc.boolean(), (inputs, r, plain) => {
        // Prepare: `plain` fleets (no host's own zone or COMPUTE_STATUS_DISABLED) take collect's one-pass form.
        const hosts = hostsFrom(
          plain ? inputs.map((h) => ({ ...h, availability_zone: null, traits: [] })) : inputs,
        );
        const config = makeConfig({ DEFAULT: { reserved_host_memory_mb: 512 } });
        const input: Partial<RequestSpecInput> = {
          flavor: { name: 'f', vcpus: r.vcpus, memory_mb: r.memory_mb, root_gb: r.root_gb },
          availability_zone: r.availability_zone,
          requested_destination: { forbidden_aggregates: r.forbidden },
        };
        const ctx = makeContext(config, hosts);
        const decide = () => {
          const result = placementPrefilter(hosts, makeSpec(input), ctx, true);
          return { kept: kept(result), removed: removed(result) };
        };
        // Act: the first request on this array has no limits yet; the second builds them.
        const exact = decide();
        const byLimits = decide();
        // Assess
        expect(byLimits).toEqual(exact);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['keeps only a requested destination that fits', 'b', ['b']],
    ['keeps nothing when the requested destination does not fit', 'full', []],
  ])('%s', (_case, destination, expected) => {
    // Prepare
    const hosts = [
      computeHost({ host: 'a' }),
      computeHost({ host: 'full', free_ram_mb: 0 }),
      computeHost({ host: 'b' }),
    ];
    const spec = makeSpec({ requested_destination: { host: destination } });
    // Act
    const result = placementPrefilter(hosts, spec, makeContext(makeConfig(), hosts), false);
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('returns a new array each time, untouched by a later request', () => {
    // Prepare
    const hosts = [
      computeHost({ host: 'a' }),
      computeHost({ host: 'full', free_ram_mb: 0 }),
      computeHost({ host: 'b' }),
    ];
    const ctx = makeContext(makeConfig(), hosts);
    const first = placementPrefilter(hosts, makeSpec(), ctx, false);
    // Act
    placementPrefilter(
      hosts,
      makeSpec({ flavor: { name: 'tiny', vcpus: 1, memory_mb: 0, root_gb: 0 } }),
      ctx,
      false,
    );
    // Assess
    expect(kept(first)).toEqual(['a', 'b']);
  });
});

describe('placementPrefilter on one fleet over many requests', () => {
  it('answers each zone from its own members, before and after the fleet stops keeping them', () => {
    // Prepare: 12 zones (more than the fleet keeps member lists for), 3 hosts each, one full
    const zones = Array.from({ length: 12 }, (_, z) => agg(`zone${z}`, { availability_zone: `az${z}` }));
    const hosts = Array.from({ length: 36 }, (_, i) =>
      computeHost({ host: `h${i}`, aggregates: [zones[i % 12]], free_ram_mb: i === 13 ? 0 : 15872 }),
    );
    const ctx = makeContext(makeConfig(), hosts);
    const keptIn = (az: string | null) =>
      kept(placementPrefilter(hosts, makeSpec({ availability_zone: az }), ctx, false));
    const order = ['az0', 'az1', null, ...zones.map((_, z) => `az${z}`), 'az1', 'az0', 'az11', null];
    // Act
    const answers = order.map(keptIn);
    // Assess
    const expected = (az: string | null) =>
      hosts.filter((_h, i) => (az === null || `az${i % 12}` === az) && i !== 13).map((h) => h.host);
    expect(answers).toEqual(order.map(expected));
    expect(answers[1]).toEqual(['h1', 'h25']);
  });
});

describe('amountsByKind', () => {
  it('puts VCPU, MEMORY_MB and DISK_GB in their own slots and keeps the other classes in order', () => {
    // Act
    const amounts = amountsByKind([
      { rc: 'VCPU', amount: 2, kind: 0, stage: 'Placement:VCPU' },
      { rc: 'PCPU', amount: 4, kind: 3, stage: 'Placement:PCPU' },
      { rc: 'MEMORY_MB', amount: 512, kind: 1, stage: 'Placement:MEMORY_MB' },
      { rc: 'CUSTOM_GPU', amount: 1, kind: 3, stage: 'Placement:CUSTOM_GPU' },
    ]);
    // Assess
    expect(amounts).toEqual({
      vcpu: 2,
      ram: 512,
      disk: 0,
      others: [
        { rc: 'PCPU', amount: 4, kind: 3, stage: 'Placement:PCPU' },
        { rc: 'CUSTOM_GPU', amount: 1, kind: 3, stage: 'Placement:CUSTOM_GPU' },
      ],
    });
  });
});
