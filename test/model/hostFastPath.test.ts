/**
 * The fast host-file path (lib/model/hostFastPath.ts) against zod, the reference: whatever the fast
 * path returns, zod accepts and turns into the same host state (key order included); whatever zod
 * refuses, parseHostStates refuses with zod's words. Numbers sit on and around every bound of the
 * table, so a range changed on one side only makes these fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { BOUNDS } from '../../lib/model/bounds.js';
import { checkDistinctHosts } from '../../lib/model/hostDefaults.js';
import {
  FAST_PATH_FIELDS,
  fastHostState,
  fastHostStates,
  fastHostStatesOfStream,
} from '../../lib/model/hostFastPath.js';
import { hostStateInput, parseHostStates, toHostState } from '../../lib/model/hostSchema.js';
import { readFrom } from '../../lib/model/jsonArrayObjects.js';
import { parseWith } from '../../lib/model/schema.js';
import {
  ANY_VALUE,
  hostileChange,
  NON_NUMBER_VALUES,
  ordered,
  outcome,
  withValue,
} from '../helpers/fastPathEdges.js';

/** parseHostStates as it was before the fast path: one zod parse of the whole array. */
function zodHostStates(input: unknown, source: string) {
  const states = parseWith(z.array(hostStateInput), input, source).map(toHostState);
  checkDistinctHosts(states, source);
  return states;
}

/** The fast path may decline, but what it returns is zod's answer, exactly. */
function expectAgrees(host: unknown): void {
  const fast = fastHostState(host);
  if (fast === undefined) return;
  const reference = hostStateInput.safeParse(host);
  expect(reference.success, `zod refuses what the fast path took: ${JSON.stringify(host)}`).toBe(true);
  expect(ordered(fast)).toStrictEqual(ordered(toHostState(reference.data!)));
}

function expectSameParse(hosts: unknown): void {
  expect(outcome(() => parseHostStates(hosts, 'hosts.json'))).toStrictEqual(
    outcome(() => zodHostStates(hosts, 'hosts.json')),
  );
}

// ---- hosts -------------------------------------------------------------------------------------

const idChars = fc.constantFrom(...Array.from('abcxyz019-_.:ñ😀'));
const id = fc.string({ unit: idChars, minLength: 1, maxLength: 12 });
const inRange = (b: { min: number; max: number; integer: boolean }) =>
  b.integer
    ? fc.oneof(fc.constantFrom(b.min, b.max), fc.integer({ min: b.min, max: Math.min(b.max, 2 ** 31) }))
    : fc.oneof(fc.constantFrom(b.min, b.max), fc.double({ min: b.min, max: b.max, noNaN: true }));
const novaValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const metadata = fc.dictionary(fc.string({ unit: idChars, maxLength: 8 }), novaValue, { maxKeys: 3 });

/** A valid host of the common shape: what the fast path is for. */
const commonHost = fc.record(
  {
    host: id,
    nodename: id,
    uuid: id,
    cell_uuid: fc.option(id),
    free_ram_mb: inRange(BOUNDS.free_ram_mb),
    total_usable_ram_mb: inRange(BOUNDS.ram_mb),
    free_disk_mb: inRange(BOUNDS.free_disk_mb),
    total_usable_disk_gb: inRange(BOUNDS.disk_gb),
    disk_mb_used: inRange(BOUNDS.disk_mb),
    vcpus_total: inRange(BOUNDS.vcpus),
    vcpus_used: inRange(BOUNDS.vcpus),
    cpu_allocation_ratio: fc.option(fc.double({ min: 0.01, max: 1000, noNaN: true })),
    ram_allocation_ratio: fc.option(fc.constantFrom(1.5, 1000, Number.MIN_VALUE)),
    disk_allocation_ratio: fc.option(fc.constant(1)),
    aggregates: fc.array(
      fc.record(
        {
          uuid: id,
          name: fc.string({ unit: idChars, maxLength: 8 }),
          hosts: fc.array(id, { maxLength: 2 }),
          metadata,
        },
        { requiredKeys: ['name'] },
      ),
      { maxLength: 3 },
    ),
    instances: fc.oneof(
      fc.array(id, { maxLength: 3 }),
      fc.dictionary(
        id,
        fc.record({ uuid: id, flavor: fc.string(), vm_state: fc.string() }, { requiredKeys: [] }),
        {
          maxKeys: 3,
        },
      ),
    ),
    num_instances: inRange(BOUNDS.host_instances),
    num_io_ops: inRange(BOUNDS.io_ops),
    failed_builds: inRange(BOUNDS.failed_builds),
    metrics: fc.constant([]),
    service: fc.record(
      {
        disabled: fc.boolean(),
        up: fc.boolean(),
        forced_down: fc.boolean(),
        disabled_reason: fc.option(fc.string()),
        last_seen_up: fc.option(fc.string()),
      },
      { requiredKeys: [] },
    ),
    hypervisor_type: fc.option(fc.constantFrom('QEMU', 'ironic', '')),
    hypervisor_version: fc.option(inRange(BOUNDS.hypervisor_version)),
    hypervisor_hostname: fc.option(id),
    supported_instances: fc.array(fc.tuple(fc.string(), fc.string(), fc.string()), { maxLength: 2 }),
    cpu_info: fc.option(fc.string()),
    host_ip: fc.option(fc.constantFrom('10.0.0.1', '::1')),
    stats: fc
      .dictionary(fc.string({ unit: idChars, maxLength: 8 }), novaValue, { maxKeys: 3 })
      .chain((s) =>
        fc.constantFrom(s, { ...s, num_instances: '7' }, { ...s, io_workload: '2', num_instances: '-1' }),
      ),
    numa_topology: fc.constant(null),
    pci_stats: fc.constant(null),
    availability_zone: fc.option(fc.string({ unit: idChars, maxLength: 5 })),
    traits: fc.array(fc.constantFrom('HW_CPU_X86_AVX2', 'CUSTOM_GOLD', ''), { maxLength: 3 }),
    inventories: fc.constant({}),
    rack: fc.string(),
    extra: fc.constant({ dropped: true }),
  },
  { requiredKeys: ['host'] },
);

/** The schema's bounded numbers at the top level of a host: each gets every edge of every bound. */
const NUMBER_FIELDS = [
  'free_ram_mb',
  'total_usable_ram_mb',
  'free_disk_mb',
  'total_usable_disk_gb',
  'disk_mb_used',
  'vcpus_total',
  'vcpus_used',
  'cpu_allocation_ratio',
  'ram_allocation_ratio',
  'disk_allocation_ratio',
  'num_instances',
  'num_io_ops',
  'failed_builds',
  'hypervisor_version',
];

/** Places whose every zod-valid value the fast path takes (numbers, ids and names, flags). */
const COVERED_PATHS = new Set([
  'host',
  'nodename',
  'uuid',
  'cell_uuid',
  'hypervisor_hostname',
  'availability_zone',
  'hypervisor_type',
  'host_ip',
  'aggregates.0.name',
  'aggregates.0.uuid',
  'aggregates.0.hosts.0',
  'aggregates.0.metadata.storage',
  'service.disabled',
  'service.up',
  'service.forced_down',
  'service.disabled_reason',
  'service.last_seen_up',
  'supported_instances.0.1',
  'traits.0',
]);

/** A path into a host and a value to put there (created when missing). */
const PATHS: (string | number)[][] = [
  ...[...FAST_PATH_FIELDS].map((f) => [f]),
  ['__proto__'],
  ['constructor'],
  ['limits'],
  ['aggregates', 0],
  ['aggregates', 0, 'name'],
  ['aggregates', 0, 'uuid'],
  ['aggregates', 0, 'hosts'],
  ['aggregates', 0, 'hosts', 0],
  ['aggregates', 0, 'metadata'],
  ['aggregates', 0, 'metadata', 'storage'],
  ['aggregates', 0, 'metadata', '__proto__'],
  ['aggregates', 0, 'extra_key'],
  ['service', 'disabled'],
  ['service', 'up'],
  ['service', 'forced_down'],
  ['service', 'disabled_reason'],
  ['service', 'last_seen_up'],
  ['service', 'report_interval_seconds'],
  ['supported_instances', 0],
  ['supported_instances', 0, 1],
  ['supported_instances', 0, 3],
  ['stats', 'num_instances'],
  ['stats', 'io_workload'],
  ['stats', 'cpu_arch'],
  ['traits', 0],
  ['instances', 'i-1'],
  ['instances', 'i-1', 'uuid'],
  ['instances', 'i-1', 'image_properties'],
  ['instances', 'i-1', 'vm_state'],
  ['instances', 0],
  ['metrics', 0],
  ['inventories', 'VCPU'],
  ['numa_topology', 'cells'],
];

/** The base host the deterministic sweep changes one place of. */
function baseHost(path: (string | number)[]): Record<string, unknown> {
  const instancesAsList = path[0] === 'instances' && typeof path[1] === 'number';
  return {
    host: 'cmp-1',
    free_ram_mb: 1024,
    total_usable_ram_mb: 2048,
    vcpus_total: 8,
    cpu_allocation_ratio: 4,
    aggregates: [{ name: 'ssd', hosts: ['cmp-1'], metadata: { storage: 'ssd' } }],
    service: { disabled: false, up: true },
    supported_instances: [['x86_64', 'kvm', 'hvm']],
    stats: { cpu_arch: 'x86_64' },
    traits: ['CUSTOM_GOLD'],
    instances: instancesAsList ? ['i-0'] : { 'i-1': { uuid: 'i-1', vm_state: 'active' } },
    metrics: [],
    inventories: {},
  };
}

describe('the fast host-state path', () => {
  it('reads exactly the fields of the zod schema', () => {
    expect([...FAST_PATH_FIELDS].sort()).toStrictEqual(Object.keys(hostStateInput.shape).sort());
  });

  it('takes the bench fleet shape and gives zod`s host state', () => {
    const host = {
      host: 'cmp-0',
      free_ram_mb: 100000,
      total_usable_ram_mb: 262144,
      total_usable_disk_gb: 2000,
      free_disk_mb: 1500000,
      vcpus_total: 64,
      vcpus_used: 12,
      cpu_allocation_ratio: 4,
      num_instances: 3,
      hypervisor_type: 'QEMU',
      hypervisor_version: 8002000,
      supported_instances: [['x86_64', 'kvm', 'hvm']],
      service: { disabled: false, up: true },
      aggregates: [{ name: 'zone-az1', metadata: { availability_zone: 'az1' } }],
    };
    expect(fastHostState(host)).toBeDefined();
    expectAgrees(host);
  });

  it('shares an equal sub-value between hosts, and only an equal one', () => {
    const host = (name: string, n: unknown) => ({
      host: name,
      aggregates: [{ name: 'big', metadata: { n } }],
    });
    const hosts = parseHostStates([host('a', 1), host('b', 1), host('c', 2)], 'hosts.json');
    expect(hosts[1].aggregates).toBe(hosts[0].aggregates);
    expect(hosts[2].aggregates[0].metadata).toStrictEqual({ n: '2' });
    expectSameParse([host('a', 1), host('c', '1'), host('d', [1])]);
  });

  it('shares one frozen empty record and metric list between hosts that have none', () => {
    const [a, b] = fastHostStates([{ host: 'a' }, { host: 'b', stats: {}, dropped: 1 }], 'h.json')!;
    expect(b.limits).toBe(a.limits);
    expect(b.metrics).toBe(a.metrics);
    for (const empty of [a.extra, a.instances, a.stats, a.inventories, a.limits, a.metrics])
      expect(Object.isFrozen(empty) && Object.keys(empty)).toStrictEqual([]);
    // A record the host gave is its own.
    expect(b.stats).not.toBe(a.stats);
    expect(b.extra).toStrictEqual({ dropped: 1 });
    expect(() => {
      a.limits.vcpu = 4;
    }).toThrow(TypeError);
  });

  it("gives every host, whichever path read it, the one frozen empty limits Placid's filters never fill", () => {
    // Act
    const [fast] = fastHostStates([{ host: 'a' }], 'h.json')!;
    const [slow] = parseHostStates([{ host: 'a' }], 'h.json');
    // Assess
    expect(slow.limits).toBe(fast.limits);
    expect(Object.isFrozen(slow.limits)).toBe(true);
  });

  it('sweep: every place of a host holding every edge value agrees with zod, errors included', () => {
    let taken = 0;
    for (const path of PATHS) {
      const base = baseHost(path);
      const numeric = path.length === 1 && NUMBER_FIELDS.includes(path[0] as string);
      const covered = numeric || COVERED_PATHS.has(path.join('.'));
      for (const value of numeric ? ANY_VALUE : NON_NUMBER_VALUES) {
        const host = withValue(base, path, value);
        expectAgrees(host);
        expectSameParse([host]);
        // After the unchanged host, whose sub-values the fast path has then checked and shares:
        // an equal-looking value must not be taken on the first one's word.
        expectSameParse([base, host]);
        const fast = fastHostState(host) !== undefined;
        if (fast) taken++;
        // Where the fast path reads every value zod may take, it declines only what zod refuses:
        // a range widened on the schema's side alone fails here.
        if (covered)
          expect(fast, `${path.join('.')} = ${String(value)}`).toBe(hostStateInput.safeParse(host).success);
      }
    }
    // The sweep is not vacuous: many of its hosts are valid and take the fast path.
    expect(taken).toBeGreaterThan(300);
  });

  it('property: valid hosts of the common shape all take the fast path and equal zod`s', () => {
    fc.assert(
      fc.property(commonHost, (host) => {
        expect(fastHostState(host)).toBeDefined();
        expectAgrees(host);
      }),
      { numRuns: 300 },
    );
  });

  it('property: hostile changes anywhere are refused with zod`s words, or taken as zod takes them', () => {
    const change = hostileChange(PATHS);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(commonHost, fc.option(change)), { minLength: 1, maxLength: 4 }),
        (rows) => {
          const hosts = rows.map(([host, c]) => (c ? withValue(host, c.path, c.value) : host));
          for (const host of hosts) expectAgrees(host);
          expectSameParse(hosts);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a host file read host by host gives the answer of the file parsed whole', () => {
    const change = hostileChange(PATHS);
    const fromBytes = (hosts: unknown[], space: string | number | undefined) =>
      fastHostStatesOfStream(readFrom(Buffer.from(JSON.stringify(hosts, null, space))), 'h.json');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(commonHost, fc.option(change, { freq: 4 })), { maxLength: 4 }),
        fc.constantFrom(undefined, 2, '\t'),
        fc.boolean(),
        (rows, space, duplicate) => {
          const hosts = rows.map(([host, c]) => (c ? withValue(host, c.path, c.value) : host));
          if (duplicate && hosts.length > 0) hosts.push(hosts[0]);
          // Through JSON, as a file holds them: what JSON cannot carry (undefined, NaN) is gone.
          const parsed = JSON.parse(JSON.stringify(hosts));
          expect(outcome(() => fromBytes(hosts, space))).toStrictEqual(
            outcome(() => fastHostStates(parsed, 'h.json')),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the whole-array answer: duplicates and non-arrays as zod`s parse does', () => {
    const a = { host: 'a', vcpus_total: 1 };
    expect(fastHostStates([a, { host: 'b' }], 'h.json')).toHaveLength(2);
    expect(() => fastHostStates([a, { ...a }], 'h.json')).toThrow(
      '[1]: duplicate host/nodename a/a (first at [0])',
    );
    expect(fastHostStates({ host: 'a' }, 'h.json')).toBeUndefined();
    expect(fastHostStates([a, { host: 'b', numa_topology: { cells: [] } }], 'h.json')).toBeUndefined();
    for (const input of [{ host: 'a' }, null, 'x', [a, 7], [a, { ...a }], []]) expectSameParse(input);
  });
});
