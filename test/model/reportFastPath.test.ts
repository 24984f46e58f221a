/**
 * The fast report-message path (lib/model/reportFastPath.ts) against zod, the reference: whatever the
 * fast path returns, zod accepts and turns into the same reports (key order included); whatever zod
 * refuses, the fast path declines, so validateReportMessage words it with zod. Values sit on and
 * around every bound, and every field is also replaced by wrong types and hostile strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { toHostState } from '../../lib/model/hostSchema.js';
import { type FastReportMessage, fastReportMessage } from '../../lib/model/reportFastPath.js';
import { reportMessageInput } from '../../lib/model/reportSchema.js';
import { validateReportMessage } from '../../lib/model/reports.js';
import { ANY_VALUE, ordered, withValue } from '../helpers/fastPathEdges.js';

const NOW = new Date('2026-12-01T12:00:00Z');

/** The zod branch of validateReportMessage, in the fast path's shape. */
function zodReports(doc: unknown): FastReportMessage | undefined {
  const result = reportMessageInput.safeParse(doc);
  if (!result.success) return undefined;
  return {
    hypervisors: result.data.hypervisors.map((h) => {
      const { reported_at, samples, gaps: _gaps, ...hostFields } = h;
      return { state: toHostState(hostFields), availability_zone: h.availability_zone, reported_at, samples };
    }),
    instances: result.data.instances as z.output<typeof reportMessageInput>['instances'],
  };
}

function expectAgrees(doc: unknown): boolean {
  const fast = fastReportMessage(doc);
  if (fast === undefined) return false;
  const reference = zodReports(doc);
  expect(reference, `zod refuses what the fast path took: ${JSON.stringify(doc)}`).toBeDefined();
  expect(ordered(fast)).toStrictEqual(ordered(reference));
  return true;
}

const idChars = fc.constantFrom(...Array.from('abcxyz019-_.:ñ'));
const id = fc.string({ unit: idChars, minLength: 1, maxLength: 10 });
const label = fc.string({ unit: idChars, maxLength: 6 });
const percent = fc.oneof(fc.constantFrom(0, 100, 55.5), fc.double({ min: 0, max: 100, noNaN: true }));
const load = fc.oneof(fc.constantFrom(0, 12.5), fc.double({ min: 0, max: 1_000_000, noNaN: true }));
const stamp = fc.constantFrom(
  '2026-12-01T11:59:00Z',
  '2026-12-01T11:58:50.000Z',
  '2026-12-01T20:58:40+09:00',
  '2026-02-29T10:00:00Z',
  '2026-12-01 11:59:00Z',
  '2026-12-01T11:59:00',
);

const hostSample = fc.record(
  {
    ts: stamp,
    steal_percent: percent,
    cpu_percent: percent,
    load5: load,
    migration_net_mbps: fc.double({ min: 0, max: 10_000_000, noNaN: true }),
  },
  { requiredKeys: ['ts', 'steal_percent', 'cpu_percent', 'load5'] },
);
const instanceSample = fc.record({ ts: stamp, steal_percent: percent, load5: load, cpu_percent: percent });

const hypervisor = fc.record(
  {
    host: id,
    nodename: id,
    availability_zone: id,
    reported_at: stamp,
    vcpus_total: fc.integer({ min: 0, max: 256 }),
    vcpus_used: fc.integer({ min: 0, max: 256 }),
    cpu_allocation_ratio: fc.constantFrom(1, 4, 16),
    total_usable_ram_mb: fc.integer({ min: 0, max: 1_000_000 }),
    free_ram_mb: fc.integer({ min: -1000, max: 1_000_000 }),
    hypervisor_type: fc.constant('QEMU'),
    aggregates: fc.constant([{ name: 'az1', metadata: { availability_zone: 'az1' } }]),
    samples: fc.array(hostSample, { maxLength: 3 }),
    extra_field: fc.string({ maxLength: 4 }),
  },
  { requiredKeys: ['host', 'availability_zone', 'reported_at'] },
);

const instance = fc.record(
  {
    uuid: id,
    name: label,
    host: id,
    nodename: id,
    availability_zone: id,
    role: fc.option(label),
    flavor: fc.record(
      {
        name: id,
        vcpus: fc.integer({ min: 0, max: 64 }),
        memory_mb: fc.integer({ min: 0, max: 65_536 }),
        root_gb: fc.integer({ min: 0, max: 100 }),
        ephemeral_gb: fc.integer({ min: 0, max: 10 }),
        swap: fc.integer({ min: 0, max: 10 }),
      },
      { requiredKeys: ['name', 'vcpus', 'memory_mb', 'root_gb'] },
    ),
    shared_storage: fc.boolean(),
    server_group: fc.option(
      fc.record({ name: label, policy: fc.constantFrom('affinity', 'anti-affinity', 'soft-anti-affinity') }),
    ),
    kubernetes_node: fc.option(label),
    kubernetes_cluster: fc.option(label),
    consul: fc.option(fc.record({ node: label, address: label })),
    last_migrated_at: fc.option(stamp),
    reported_at: stamp,
    samples: fc.array(instanceSample, { maxLength: 3 }),
    agent_extra: fc.integer(),
  },
  { requiredKeys: ['uuid', 'name', 'host', 'availability_zone', 'flavor', 'reported_at'] },
);

const message = fc.record(
  {
    schema_version: fc.constant(1),
    hypervisors: fc.array(hypervisor, { maxLength: 3 }),
    instances: fc.array(instance, { maxLength: 3 }),
  },
  { requiredKeys: ['schema_version'] },
);

/** Every path to a value in `doc`, objects and arrays included. */
function paths(doc: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (doc === null || typeof doc !== 'object') return [prefix];
  const keys = Array.isArray(doc) ? doc.map((_, i) => i) : Object.keys(doc);
  const out: (string | number)[][] = prefix.length > 0 ? [prefix] : [];
  for (const k of keys) out.push(...paths((doc as Record<string | number, unknown>)[k], [...prefix, k]));
  return out;
}

/** The least instance report the schema takes: no samples, no optional fields. */
const SMALL_VM = {
  uuid: 'u1',
  name: 'vm',
  host: 'h1',
  availability_zone: 'az1',
  flavor: { name: 'm1', vcpus: 1, memory_mb: 512, root_gb: 1 },
  reported_at: '2026-12-01T11:59:00Z',
};

describe('fastReportMessage', () => {
  it('gives exactly what zod gives for messages of the common shape, and takes every one zod accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(message, (doc) => {
        const json = JSON.parse(JSON.stringify(doc));
        const took = expectAgrees(json);
        const zodTook = zodReports(json) !== undefined;
        // The common shape is what the fast path is for: declining it would only cost time.
        expect(took).toBe(zodTook);
        if (zodTook) accepted++;
      }),
      { numRuns: 300 },
    );
    // Non-vacuity: some generated messages are valid (a third of the timestamps are not).
    expect(accepted).toBeGreaterThan(10);
  });

  it('declines (or agrees with zod) when any one value is replaced by an edge value or a wrong type', () => {
    fc.assert(
      fc.property(
        message,
        fc.nat(),
        fc.constantFrom(...ANY_VALUE, undefined, '', 'x'.repeat(300)),
        (doc, pick, value) => {
          const all = paths(doc);
          if (all.length === 0) return;
          const mutated = withValue(doc, all[pick % all.length], value);
          expectAgrees(mutated);
          // What zod refuses, the fast path must decline, so zod words the error.
          if (zodReports(mutated) === undefined) expect(fastReportMessage(mutated)).toBeUndefined();
        },
      ),
      { numRuns: 600 },
    );
  });

  it('agrees with zod for every edge value in every field of a full message', () => {
    const full = {
      schema_version: 1,
      hypervisors: [
        {
          host: 'cmp1',
          nodename: 'cmp1',
          availability_zone: 'az1',
          reported_at: '2026-12-01T11:59:00Z',
          vcpus_total: 64,
          cpu_allocation_ratio: 4,
          samples: [
            {
              ts: '2026-12-01T11:58:50Z',
              steal_percent: 5,
              cpu_percent: 50,
              load5: 1,
              migration_net_mbps: 0,
            },
          ],
        },
      ],
      instances: [
        {
          uuid: 'u1',
          name: 'vm',
          host: 'cmp1',
          nodename: 'cmp1',
          availability_zone: 'az1',
          role: 'web',
          flavor: { name: 'm1', vcpus: 1, memory_mb: 512, root_gb: 1, ephemeral_gb: 0, swap: 0 },
          shared_storage: false,
          server_group: { name: 'web', policy: 'anti-affinity' },
          kubernetes_node: null,
          kubernetes_cluster: 'k',
          consul: { node: 'vm', address: '10.0.0.1' },
          last_migrated_at: '2026-12-01T10:00:00Z',
          reported_at: '2026-12-01T11:59:00Z',
          samples: [{ ts: '2026-12-01T11:58:50Z', steal_percent: 5, load5: 1, cpu_percent: 50 }],
        },
      ],
    };
    expect(expectAgrees(full)).toBe(true);
    let declined = 0;
    for (const path of paths(full)) {
      for (const value of [...ANY_VALUE, undefined]) {
        const mutated = withValue(full, path, value);
        if (!expectAgrees(mutated)) {
          declined++;
          if (zodReports(mutated) !== undefined) continue;
        }
        if (zodReports(mutated) === undefined) expect(fastReportMessage(mutated)).toBeUndefined();
      }
    }
    expect(declined).toBeGreaterThan(0);
  });

  it('leaves gaps, unknown message keys and null lists to zod', () => {
    const doc = { schema_version: 1, hypervisors: [], instances: [] };
    expect(fastReportMessage(doc)).toBeDefined();
    expect(fastReportMessage({ ...doc, hypervisors: null })).toBeUndefined();
    expect(fastReportMessage({ ...doc, other: 1 })).toBeUndefined();
    expect(fastReportMessage({ ...doc, schema_version: 2 })).toBeUndefined();
    const gaps = [{ from: '2026-12-01T11:00:00Z', to: '2026-12-01T11:01:00Z', reason: 'no_data' }];
    expect(fastReportMessage({ ...doc, instances: [SMALL_VM] })).toBeDefined();
    expect(fastReportMessage({ ...doc, instances: [{ ...SMALL_VM, gaps }] })).toBeUndefined();
  });

  it('words a refused message with zod, as before the fast path', () => {
    const doc = {
      schema_version: 1,
      instances: [
        {
          ...SMALL_VM,
          samples: [{ ts: '2026-12-01T11:59:00Z', steal_percent: 140, load5: 1, cpu_percent: 1 }],
        },
      ],
    };
    expect(() => validateReportMessage(doc, NOW, 'm')).toThrow(/instances\[0\]\.samples\[0\]\.steal_percent/);
  });
});
