/**
 * The fast request path (lib/model/requestFastPath.ts) against zod's parseRequestSpec, the
 * reference: what the fast path returns (or throws, from the shared completion) is exactly what
 * parseRequestSpec gives; what it declines, zod decides. Numbers sit on and around every bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNDS } from '../../lib/model/bounds.js';
import { FAST_REQUEST_FIELDS, fastRequestSpec } from '../../lib/model/requestFastPath.js';
import { parseRequestSpec, requestSpecInput } from '../../lib/model/requestSchema.js';
import type { RequestSpec } from '../../lib/model/requestSpec.js';
import { ANY_VALUE, hostileChange, NON_NUMBER_VALUES, outcome, withValue } from '../helpers/fastPathEdges.js';

/** Generated request ids (`req-N`) count calls, so two parses of one document differ there only. */
function withoutCountedId(spec: RequestSpec | undefined, input: unknown): unknown {
  if (spec === undefined || (input as { request_id?: unknown }).request_id !== undefined) return spec;
  expect(spec.request_id).toMatch(/^req-\d+$/);
  return { ...spec, request_id: 'counted' };
}

/** The fast path may decline; what it gives (or throws) is parseRequestSpec's answer, exactly. */
function expectAgrees(doc: unknown): boolean {
  const fast = outcome(() => withoutCountedId(fastRequestSpec(doc, 'request.json'), doc));
  if ((fast as { ok?: unknown }).ok === undefined && !('error' in (fast as object))) return false;
  const reference = outcome(() => withoutCountedId(parseRequestSpec(doc, 'request.json'), doc));
  expect(fast, JSON.stringify(doc)).toStrictEqual(reference);
  return true;
}

const BASE = {
  flavor: {
    name: 'm1.large',
    vcpus: 4,
    memory_mb: 8192,
    root_gb: 40,
    extra_specs: { 'hw:cpu_policy': 'shared' },
  },
  image: { id: 'img-1', properties: { hw_architecture: 'x86_64' } },
  scheduler_hints: { group: 'g-1', same_host: ['a', 'b'] },
  availability_zone: 'az2',
  instance_metadata: { role: 'web' },
  ignore_hosts: ['cmp-9'],
};

const NUMBER_PATHS = [
  ['flavor', 'vcpus'],
  ['flavor', 'memory_mb'],
  ['flavor', 'root_gb'],
  ['flavor', 'ephemeral_gb'],
  ['flavor', 'swap'],
  ['num_instances'],
];

const PATHS: (string | number)[][] = [
  ...[...FAST_REQUEST_FIELDS].map((f) => [f]),
  ...NUMBER_PATHS.filter((p) => p.length > 1),
  ['unknown_key'],
  ['flavor', 'name'],
  ['flavor', 'extra_specs'],
  ['flavor', 'extra_specs', 'hw:mem_page_size'],
  ['flavor', 'extra_specs', '__proto__'],
  ['flavor', 'disk'],
  ['image', 'id'],
  ['image', 'disk_format'],
  ['image', 'properties'],
  ['image', 'properties', 'hw_architecture'],
  ['image', 'properties', 'hw_cpu_cores'],
  ['image', 'properties', 'hw_boot_menu'],
  ['image', 'properties', 'architecture'],
  ['image', 'properties', 'vmware_adaptertype'],
  ['image', 'size'],
  ['scheduler_hints', 'group'],
  ['scheduler_hints', 'same_host', 0],
  ['instance_metadata', 'role'],
  ['ignore_hosts', 0],
  ['force_hosts', 0],
  ['force_nodes', 0],
  ['pci_requests', 0],
];

const idChars = fc.constantFrom(...Array.from('abcxyz019-_.:ñ😀'));
const id = fc.string({ unit: idChars, minLength: 1, maxLength: 10 });
const novaValue = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean());
const strings = fc.dictionary(fc.string({ unit: idChars, maxLength: 8 }), novaValue, { maxKeys: 3 });
const bounded = (b: { min: number; max: number }) =>
  fc.integer({ min: b.min, max: Math.min(b.max, 2 ** 31) });

/** A valid request of the common shape. */
const commonRequest = fc.record(
  {
    request_id: id,
    flavor: fc.record(
      {
        name: fc.string({ unit: idChars, maxLength: 8 }),
        vcpus: bounded(BOUNDS.vcpus),
        memory_mb: fc.oneof(
          bounded(BOUNDS.ram_mb),
          fc.double({ min: 0, max: BOUNDS.ram_mb.max, noNaN: true }),
        ),
        root_gb: bounded(BOUNDS.disk_gb),
        ephemeral_gb: fc.constantFrom(0, BOUNDS.disk_gb.max, 0.5),
        swap: bounded(BOUNDS.swap_mb),
        extra_specs: strings,
      },
      { requiredKeys: ['vcpus', 'memory_mb'] },
    ),
    image: fc.option(
      fc.record(
        {
          id: fc.option(id),
          properties: fc.dictionary(
            fc.constantFrom(
              'hw_architecture',
              'architecture',
              'hw_boot_menu',
              'os_type',
              'hw_cpu_cores',
              'custom',
            ),
            fc.oneof(
              fc.constantFrom('x86_64', 'AMD64', 'i386', 'true', 'no', '2'),
              fc.integer({ min: 0, max: 9 }),
            ),
            { maxKeys: 3 },
          ),
          disk_format: fc.option(fc.constantFrom('qcow2', 'raw')),
        },
        { requiredKeys: [] },
      ),
    ),
    scheduler_hints: fc.option(
      fc.dictionary(
        fc.string({ unit: idChars, maxLength: 6 }),
        fc.oneof(novaValue, fc.array(novaValue, { maxLength: 3 })),
        {
          maxKeys: 3,
        },
      ),
    ),
    availability_zone: fc.option(fc.string({ unit: idChars, maxLength: 5 })),
    project_id: fc.option(id),
    user_id: fc.option(id),
    instance_uuid: fc.option(id),
    num_instances: bounded(BOUNDS.num_instances),
    ignore_hosts: fc.option(fc.array(id, { maxLength: 3 })),
    force_hosts: fc.option(fc.array(id, { maxLength: 2 })),
    force_nodes: fc.option(fc.array(id, { maxLength: 2 })),
    instance_group: fc.constant(null),
    requested_destination: fc.constant(null),
    numa_topology: fc.constant(null),
    pci_requests: fc.constant([]),
    is_bfv: fc.boolean(),
    instance_metadata: strings,
  },
  { requiredKeys: ['flavor'] },
);

describe('the fast request path', () => {
  it('reads exactly the fields of the zod schema', () => {
    expect([...FAST_REQUEST_FIELDS].sort()).toStrictEqual(Object.keys(requestSpecInput.shape).sort());
  });

  it('takes the bench request and gives parseRequestSpec`s answer', () => {
    expect(fastRequestSpec(BASE)).toBeDefined();
    expect(expectAgrees(BASE)).toBe(true);
  });

  it('sweep: every place of a request holding every edge value agrees with zod, errors included', () => {
    let taken = 0;
    for (const path of PATHS) {
      const numeric = NUMBER_PATHS.some((p) => p.join('.') === path.join('.'));
      for (const value of numeric ? ANY_VALUE : NON_NUMBER_VALUES) {
        const doc = withValue(BASE, path, value);
        const fast = expectAgrees(doc);
        if (fast) taken++;
        // Numbers are read in full: the fast path declines only what zod refuses (a range widened
        // on the schema's side alone fails here).
        if (numeric)
          expect(fast, `${path.join('.')} = ${String(value)}`).toBe(requestSpecInput.safeParse(doc).success);
      }
    }
    expect(taken).toBeGreaterThan(200);
  });

  it('property: valid requests of the common shape all take the fast path and equal zod`s', () => {
    fc.assert(
      fc.property(commonRequest, (doc) => {
        expect(expectAgrees(doc)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: hostile changes are refused with zod`s words, or taken as zod takes them', () => {
    const change = hostileChange(PATHS);
    fc.assert(
      fc.property(commonRequest, change, (doc, c) => {
        expectAgrees(withValue(doc, c.path, c.value));
      }),
      { numRuns: 300 },
    );
  });
});
