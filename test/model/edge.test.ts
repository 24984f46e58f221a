/** Bounds and ids at the edge: the table, the id validator, and the request checks (issue 12). */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNDS, bounded, describeBound, MAX_INSTANCES_PER_REQUEST } from '../../lib/model/bounds.js';
import { ValidationError } from '../../lib/model/errors.js';
import { parseHostStates } from '../../lib/model/hostSchema.js';
import { checkIdentifier, identifierProblem, wellFormedText } from '../../lib/model/identifiers.js';
import { parseRequestSpec } from '../../lib/model/requestSchema.js';
import { hostileString } from '../helpers/hostile.js';

const flavor = { name: 'm1', vcpus: 1, memory_mb: 512 };

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('the bounds table', () => {
  it('keeps every product the engine and claims compute within safe integers', () => {
    // The largest capacity × the largest ratio, and the largest flavor × the most instances.
    const capacities = [BOUNDS.vcpus.max, BOUNDS.ram_mb.max, BOUNDS.disk_mb.max, BOUNDS.inventory.max];
    for (const c of capacities) {
      expect(c * BOUNDS.allocation_ratio.max).toBeLessThan(Number.MAX_SAFE_INTEGER);
      expect(c * MAX_INSTANCES_PER_REQUEST).toBeLessThan(Number.MAX_SAFE_INTEGER);
    }
    expect(BOUNDS.disk_gb.max * 1024 * BOUNDS.allocation_ratio.max).toBeLessThan(Number.MAX_SAFE_INTEGER);
  });

  it('property: a bounded number accepts exactly its range, and the refusal names it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(BOUNDS) as (keyof typeof BOUNDS)[])),
        fc.double(),
        (name, value) => {
          const b = BOUNDS[name];
          const inRange =
            Number.isFinite(value) &&
            value >= b.min &&
            value <= b.max &&
            (!b.integer || Number.isInteger(value));
          const result = bounded(name).safeParse(value);
          expect(result.success).toBe(inRange);
          if (!result.success) expect(result.error.issues[0].message).toContain(`to ${b.max} ${b.unit}`);
        },
      ),
    );
  });
});

/** Any sequence of UTF-16 code units, lone surrogates and controls included. */
const utf16 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 16 })
  .map((codes) => String.fromCharCode(...codes));

describe('identifiers', () => {
  it.each([
    ['\ud800', /lone surrogate U\+D800 at 0/],
    ['a\udc00b', /lone surrogate U\+DC00 at 1/],
    ['a\r\nb', /control character \(U\+000D at 1\)/],
    ['\u001b[31m', /control character \(U\+001B at 0\)/],
    ['x\u0085', /control character \(U\+0085 at 1\)/],
    ['', /must not be empty/],
    ['x'.repeat(256), /256 characters long; at most 255/],
  ])('refuses %j', (value, problem) => {
    expect(identifierProblem(value)).toMatch(problem);
  });

  it.each([
    'cmp-01',
    'compute-01.example.org',
    'a0000000-0000-4000-8000-000000000001',
    'Rechner-Zürich',
    '計算ノード😀',
  ])('accepts %j', (value) => {
    expect(identifierProblem(value)).toBeUndefined();
  });

  it('property: any string with a control character or a lone surrogate is refused', () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        expect(identifierProblem(value)).toBeDefined();
      }),
    );
  });

  it('property: refused or not, wellFormedText always makes the string encodable', () => {
    fc.assert(
      fc.property(utf16, (value) => {
        const clean = wellFormedText(value);
        expect(() => encodeURIComponent(clean)).not.toThrow();
        expect(clean).not.toMatch(/[\r\n]/);
      }),
    );
  });

  it('checkIdentifier throws a ValidationError naming the field (for the CLI)', () => {
    expect(() => checkIdentifier('placid approve', 'plan_id', 'p'.repeat(5000))).toThrow(
      /placid approve: plan_id: is 5000 characters long; at most 255 are allowed/,
    );
    expect(checkIdentifier('placid approve', 'plan_id', 'plan-1')).toBe('plan-1');
  });
});

describe('host states at the edge', () => {
  it('refuses a host with 4e15 vCPUs, naming the field and range', () => {
    expect(issuesOf(() => parseHostStates([{ host: 'h', vcpus_total: 4e15 }]))).toEqual([
      { path: '[0].vcpus_total', message: 'must be a number from 0 to 65536 vCPUs, got 4000000000000000' },
    ]);
  });

  it('ignores a stats num_instances beyond any real host', () => {
    const [host] = parseHostStates([{ host: 'h', stats: { num_instances: '99999999999999999999' } }]);
    expect(host.num_instances).toBe(0);
  });
});

describe('requests at the edge', () => {
  it('gives a request without request_id an id of its own, as Nova does (req-<uuid>)', () => {
    const [a, b] = [parseRequestSpec({ flavor }), parseRequestSpec({ flavor })];
    expect(a.request_id).toMatch(/^req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b.request_id).not.toBe(a.request_id);
  });

  it('refuses duplicate instance uuids, naming each repeat', () => {
    const issues = issuesOf(() => parseRequestSpec({ flavor, instance_uuids: ['u', 'v', 'u', 'u'] }));
    expect(issues.map((i) => i.path)).toEqual(['instance_uuids[2]', 'instance_uuids[3]']);
    expect(issues[0].message).toBe('duplicate instance uuid u (first at instance_uuids[0])');
  });

  it('refuses an empty instance_uuids instead of placing nothing', () => {
    expect(issuesOf(() => parseRequestSpec({ flavor, instance_uuids: [] }))).toEqual([
      {
        path: 'instance_uuids',
        message: 'must list at least one uuid; omit it to place num_instances instances',
      },
    ]);
  });

  it('refuses a num_instances that disagrees with instance_uuids', () => {
    expect(
      issuesOf(() => parseRequestSpec({ flavor, instance_uuids: ['a', 'b'], num_instances: 3 })),
    ).toEqual([
      { path: 'num_instances', message: 'is 3 but instance_uuids lists 2; send one or make them agree' },
    ]);
  });

  it.each([
    [
      '2,000,000 instances',
      { flavor: { ...flavor, vcpus: 0 }, num_instances: 2_000_000 },
      'num_instances',
      /from 1 to 1000 instances, got 2000000/,
    ],
    [
      '1001 uuids',
      { flavor, instance_uuids: Array.from({ length: 1001 }, (_, i) => `u${i}`) },
      'instance_uuids',
      /lists 1001 uuids; .* at most 1000/,
    ],
    ['1e200 MiB of RAM', { flavor: { ...flavor, memory_mb: 1e200 } }, 'flavor.memory_mb', /got 1e\+200/],
    ['4e15 vCPUs', { flavor: { ...flavor, vcpus: 4e15 } }, 'flavor.vcpus', /0 to 65536 vCPUs/],
    ['a CRLF request id', { flavor, request_id: 'r\r\n1' }, 'request_id', /control character/],
    [
      'a lone surrogate in force_hosts',
      { flavor, force_hosts: ['\ud800'] },
      'force_hosts[0]',
      /lone surrogate/,
    ],
  ])('refuses %s, naming the field', (_case, doc, path, message) => {
    const issues = issuesOf(() => parseRequestSpec(doc));
    expect(issues[0]).toEqual({ path, message: expect.stringMatching(message) });
  });

  it('accepts the largest request it allows', () => {
    const spec = parseRequestSpec({ flavor, num_instances: MAX_INSTANCES_PER_REQUEST });
    expect(spec.num_instances).toBe(1000);
  });
});

describe('docs/reliability.md', () => {
  it('lists every bound of the table with its range', () => {
    const section = readFileSync('docs/reliability.md', 'utf8');
    for (const [name, b] of Object.entries(BOUNDS)) {
      expect(section).toContain(`| \`${name}\` | ${describeBound(b)} |`);
    }
  });
});
