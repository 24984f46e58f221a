/**
 * The compiled form of a schema must give zod's answer: zod's output for what zod accepts, MISS
 * for what it refuses (zod then words the problem). Checked on the example inputs and on random
 * changes to them: values of every JSON type put at random paths.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compileSchema, MISS } from '../../lib/model/compiledSchema.js';
import { hostStateInput } from '../../lib/model/hostSchema.js';
import { reportMessageInput } from '../../lib/model/reportSchema.js';
import { requestSpecInput } from '../../lib/model/requestSchema.js';

const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

/** A host as real hypervisors report it: metrics, NUMA topology, PCI pools, inventories, instances. */
const richHost = {
  host: 'cmp-1',
  vcpus_total: 64,
  free_ram_mb: 1024,
  metrics: [{ name: 'cpu.percent', value: 12.5, source: 'libvirt', timestamp: '2026-12-01T12:00:00' }],
  numa_topology: {
    cells: [
      {
        id: 0,
        socket: 0,
        cpuset: [0, 1],
        pcpuset: [2, 3],
        memory: 4096,
        siblings: [[0, 2]],
        mempages: [{ size_kb: 2048, total: 16, used: 2 }],
      },
    ],
  },
  pci_stats: { pools: [{ vendor_id: '8086', product_id: '154d', count: 4, numa_node: 0, tags: { a: 1 } }] },
  inventories: { PCPU: { total: 32, allocation_ratio: 1 } },
  instances: { 'uuid-1': { image_properties: { hw_architecture: 'x86_64' } } },
  stats: { num_instances: 3, nested: { a: 1 } },
  cpu_info: { arch: 'x86_64' },
  aggregates: [{ name: 'ssd', metadata: { ssd: true, weight: 2 } }],
  unknown_field: { kept: true },
};

const cases: [string, z.ZodType, unknown[]][] = [
  [
    'host',
    hostStateInput,
    [...json('examples/hosts.json'), richHost, { host: 'h', instances: ['u1', 'u2'] }],
  ],
  ['request', requestSpecInput, [json('examples/request.json')]],
  ['report', reportMessageInput, [json('examples/reports/fleet.json'), json('examples/reports/noisy.json')]],
];

function zodAnswer(schema: z.ZodType, input: unknown): unknown {
  const r = schema.safeParse(input);
  return r.success ? r.data : MISS;
}

/** `doc` with `value` put at the path that `pick` selects among its nodes. */
function changed(doc: unknown, pick: number, value: unknown): unknown {
  const copy = structuredClone(doc);
  const nodes: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x))
      for (let i = 0; i < x.length; i++) {
        nodes.push([x, i]);
        walk(x[i]);
      }
    else if (x !== null && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) {
        nodes.push([x as Record<string, unknown>, k]);
        walk(v);
      }
  };
  walk(copy);
  if (nodes.length === 0) return copy;
  const [parent, key] = nodes[pick % nodes.length];
  (parent as Record<string | number, unknown>)[key] = value;
  return copy;
}

const anyValue = fc.oneof(
  fc.integer({ min: -70_000, max: 70_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, 65_536, 2 ** 40, '', 'x', 'a\u0000b', '\ud800', true, false, null),
  fc.string(),
  fc.array(fc.integer({ min: -2, max: 3 }), { maxLength: 3 }),
  fc.constantFrom({}, { name: 'n' }, [[1, 2, 3]], ['a', 'b', 'c']),
);

describe.each(cases)('compiled %s schema', (_name, schema, inputs) => {
  const compiled = compileSchema(schema);

  it('gives zod’s output for the example inputs', () => {
    for (const input of inputs) {
      expect(zodAnswer(schema, input)).not.toBe(MISS);
      expect(compiled(structuredClone(input))).toEqual(zodAnswer(schema, input));
    }
  });

  it('gives zod’s answer when any value anywhere is changed', () => {
    fc.assert(
      fc.property(fc.nat(inputs.length - 1), fc.nat(), anyValue, (which, pick, value) => {
        const input = changed(inputs[which], pick, value);
        expect(compiled(structuredClone(input))).toEqual(zodAnswer(schema, input));
      }),
      { numRuns: 400 },
    );
  });
});

describe('compiled schema semantics', () => {
  it('strips unknown keys of an object, keeps them on a loose one, refuses them on a strict one', () => {
    const shape = { a: z.number() };
    expect(compileSchema(z.object(shape))({ a: 1, b: 2 })).toEqual({ a: 1 });
    expect(compileSchema(z.looseObject(shape))({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(compileSchema(z.strictObject(shape))({ a: 1, b: 2 })).toBe(MISS);
  });

  it('fills defaults afresh each time and leaves absent optional keys absent', () => {
    const parse = compileSchema(
      z.object({ list: z.array(z.string()).default([]), note: z.string().optional() }),
    );
    const first = parse({}) as { list: string[] };
    expect(first).toEqual({ list: [] });
    expect(Object.hasOwn(first, 'note')).toBe(false);
    first.list.push('x');
    expect(parse({})).toEqual({ list: [] });
  });

  it('runs transforms and refinements of the schema', () => {
    const parse = compileSchema(
      z.object({ n: z.number().transform((n) => n * 2), s: z.string().refine((s) => s !== 'no') }),
    );
    expect(parse({ n: 2, s: 'yes' })).toEqual({ n: 4, s: 'yes' });
    expect(parse({ n: 2, s: 'no' })).toBe(MISS);
  });
});
