import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { fastHostState } from '../../lib/model/hostFastPath.js';
import { hostStateInput, parseHostStates, toHostState } from '../../lib/model/hostSchema.js';

/** Values of every kind a JSON host file may hold in a field, right or wrong. */
const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 0, -1, 1.5, 7, 2 ** 60, true, [], {}, ['a'], { a: 1 }),
  fc.integer({ min: -5, max: 100 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 3 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 30, arbitrary: arb }, { weight: 1, arbitrary: anyValue });
const metadata = fc.dictionary(
  fc.constantFrom('availability_zone', 'storage', 'x'),
  maybe(fc.constantFrom('az1', 3, false)),
);
const aggregate = fc.record(
  {
    name: maybe(fc.constantFrom('a', 'b')),
    uuid: maybe(fc.constantFrom('u1')),
    hosts: maybe(fc.constant(['h'])),
    metadata: maybe(metadata),
    other: fc.constant(1),
  },
  { requiredKeys: [] },
);
const hostInput = fc.record(
  {
    host: maybe(fc.constantFrom('h1', 'h2')),
    nodename: maybe(fc.constantFrom('n1')),
    uuid: maybe(fc.constant('u')),
    cell_uuid: maybe(fc.constantFrom(null, 'c1')),
    free_ram_mb: maybe(fc.integer({ min: -100, max: 1000 })),
    total_usable_ram_mb: maybe(fc.nat(1000)),
    vcpus_total: maybe(fc.nat(64)),
    vcpus_used: maybe(fc.double({ min: 0, max: 80, noNaN: true })),
    cpu_allocation_ratio: maybe(fc.constantFrom(null, 0, 1.5, 16)),
    num_instances: maybe(fc.nat(10)),
    num_io_ops: maybe(fc.nat(10)),
    hypervisor_version: maybe(fc.constantFrom(null, 8002000)),
    aggregates: maybe(fc.array(aggregate, { maxLength: 2 })),
    service: maybe(
      fc.record(
        {
          disabled: maybe(fc.boolean()),
          up: maybe(fc.boolean()),
          disabled_reason: maybe(fc.constantFrom(null, 'x')),
        },
        { requiredKeys: [] },
      ),
    ),
    supported_instances: maybe(fc.constant([['x86_64', 'kvm', 'hvm']])),
    stats: maybe(
      fc.dictionary(fc.constantFrom('num_instances', 'tier'), maybe(fc.constantFrom('3', 4, true))),
    ),
    traits: maybe(fc.constant(['CUSTOM_X'])),
    instances: maybe(fc.constantFrom({}, [], ['i1'])),
    metrics: maybe(fc.constant([])),
    numa_topology: maybe(fc.constant(null)),
    cpu_info: maybe(fc.constantFrom('{}', null, { arch: 'x86_64' })),
    availability_zone: maybe(fc.constantFrom(null, 'az1')),
    rack: fc.constant('r1'),
  },
  { requiredKeys: [] },
);

describe('fastHostState', () => {
  it('accepts only what zod accepts, and gives exactly the host state zod gives', () => {
    let fast = 0;
    fc.assert(
      fc.property(hostInput, (input) => {
        // Act
        const byHand = fastHostState(input);
        const byZod = hostStateInput.safeParse(input);
        // Assess
        if (byHand === null) return;
        fast++;
        expect(byZod.success).toBe(true);
        expect(byHand).toEqual(toHostState(byZod.data!));
      }),
      { numRuns: 2000 },
    );
    // The property says something only if the fast path takes a fair share of hosts.
    expect(fast).toBeGreaterThan(20);
  });

  it('leaves hosts with extra fields or nested hardware to zod', () => {
    expect(fastHostState({ host: 'h', rack: 'r1' })).toBeNull();
    expect(fastHostState({ host: 'h', numa_topology: { cells: [] } })).toBeNull();
    expect(fastHostState({ host: 'h' })).not.toBeNull();
  });
});

describe('parseHostStates', () => {
  it('names every refused host and field, as one zod parse of the array would', () => {
    const input = [{ host: 'ok' }, { host: 'bad', vcpus_total: -1 }, { host: '' }];
    expect(() => parseHostStates(input, 'hosts.json')).toThrow(ValidationError);
    expect(() => parseHostStates(input, 'hosts.json')).toThrow(/\[1\]\.vcpus_total[\s\S]*\[2\]\.host/);
  });
});
