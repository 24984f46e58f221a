import { describe, expect, it } from 'vitest';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { JsonFilter } from '../../../lib/engine/filters/JsonFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

const filter = JsonFilter;
type HostInput = Partial<HostStateInput> & Record<string, unknown>;

function specWithQuery(query: unknown) {
  const hints: Record<string, string> =
    query === undefined ? {} : { query: typeof query === 'string' ? query : JSON.stringify(query) };
  return makeSpec({ scheduler_hints: hints });
}

function prepare(query: unknown) {
  const spec = specWithQuery(query);
  const ctx = makeContext();
  return { spec, ctx, state: filter.prepare?.(spec, ctx) };
}

function passes(query: unknown, host: HostInput = {}): boolean {
  const { spec, ctx, state } = prepare(query);
  if (state === PASS_ALL) return true;
  return filter.check(makeHost(host), spec, state as never, ctx) === PASS;
}

const host: HostInput = {
  free_ram_mb: 2048,
  free_disk_mb: 204800,
  hypervisor_type: 'QEMU',
  host_ip: '10.0.0.1',
  stats: { x: '5' },
  service: { disabled: false, up: true },
  rack: 'r1',
  gpu: { model: 'a100', count: 4 },
};

describe('JsonFilter', () => {
  it('runs for every instance and not on rebuild', () => {
    // Assess
    expect(filter.runFilterOncePerRequest).toBeFalsy();
    expect(filter.runOnRebuild).toBeFalsy();
  });

  it.each([
    ['no query hint', undefined],
    ['an empty query', ''],
    ['an empty list', '[]'],
    ['an empty object', '{}'],
    ['null', 'null'],
    ['false', 'false'],
  ])('passes every host for %s', (_name, query) => {
    // Act
    const { state } = prepare(query);
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    ['">=" on an attribute passes', ['>=', '$free_ram_mb', 1024], true],
    ['">=" on an attribute fails', ['>=', '$free_ram_mb', 4096], false],
    ['"<" compares numbers', ['<', '$free_ram_mb', 4096], true],
    ['">" compares numbers', ['>', '$free_ram_mb', 4096], false],
    ['"<=" includes equality', ['<=', '$free_ram_mb', 2048], true],
    ['"=" compares strings', ['=', '$hypervisor_type', 'QEMU'], true],
    ['"=" is case sensitive', ['=', '$hypervisor_type', 'qemu'], false],
    ['the first argument is compared with each other one', ['<', 1, 2, 3], true],
    ['one failing comparison fails the operator', ['<', 2, 3, 1], false],
    ['a comparison with one argument is false', ['=', 1], false],
    ['an unresolvable variable leaves too few arguments', ['>=', '$missing', 1], false],
    ['an unresolvable variable is dropped, not false', ['=', '$missing', 1, 1], true],
    ['a null argument is dropped', ['=', null, 1, 1], true],
    ['an empty string argument is dropped', ['=', '', 2, 2], true],
    ['"not" of nothing is an empty list, which is false', ['not', '$missing'], false],
    ['"not" flips false', ['not', false], true],
    ['"not" flips true', ['not', true], false],
    ['a top-level list passes if any element is true', ['not', ['=', 1, 1], ['=', 1, 2]], true],
    [
      '"and" needs every argument',
      ['and', ['>=', '$free_ram_mb', 1024], ['>=', '$free_disk_mb', 307200]],
      false,
    ],
    [
      '"or" needs one argument',
      ['or', ['>=', '$free_ram_mb', 4096], ['=', '$hypervisor_type', 'QEMU']],
      true,
    ],
    ['"and" of nothing is true', ['and'], true],
    ['"or" of nothing is false', ['or'], false],
    ['an empty sub-expression is true', ['and', []], true],
    ['"in" finds the first argument among the others', ['in', '$hypervisor_type', 'kvm', 'QEMU'], true],
    ['"in" fails when absent', ['in', '$hypervisor_type', 'kvm', 'xen'], false],
    ['"in" with one argument is false', ['in', 'x'], false],
    ['stats values are strings, so they never equal numbers', ['=', '$stats.x', 5], false],
    ['stats values equal strings', ['=', '$stats.x', '5'], true],
    ['a string never equals a number', ['=', '1', 1], false],
    ['true equals 1, as in Python', ['=', true, 1], true],
    ['booleans resolve from dicts', ['=', '$service.disabled', false], true],
    ['$host_ip never equals a string', ['=', '$host_ip', '10.0.0.1'], false],
    ['$host_ip is never in a list of strings', ['in', '$host_ip', '10.0.0.1'], false],
    ['$host_ip equals itself', ['=', '$host_ip', '$host_ip'], true],
    ['operator attributes resolve', ['=', '$rack', 'r1'], true],
    ['operator dicts resolve key by key', ['>=', '$gpu.count', 2], true],
    ['a missing dict key is dropped', ['=', '$gpu.memory', 1, 1], true],
    ['string literals compare as text', ['<', 'abc', 'abd'], true],
    ['lists from "not" compare by content', ['=', ['not', true], ['not', true]], true],
    ['lists from "not" order element by element', ['<', ['not', true], ['not', false]], true],
    ['dict literals compare by content', ['=', { a: 1 }, { a: 1 }], true],
  ])('%s', (_name, query, expected) => {
    // Act
    const result = passes(query, host);
    // Assess
    expect(result).toBe(expected);
  });

  it.each([
    ['malformed JSON', '[">=", "$free_ram_mb"', /not valid JSON/],
    ['an unknown operator', '["!=", 1, 2]', /unknown operator "!="/],
    ['an unknown operator in a sub-expression', '["and", ["~", 1, 2]]', /unknown operator "~"/],
    ['an operator that is not a string', '[1, 2]', /unknown operator 1/],
    ['a number instead of a list', '5', /must be a JSON list/],
    ['a non-empty object instead of a list', '{"a": 1}', /must be a JSON list/],
  ])('raises a RequestError naming the query for %s', (_name, query, message) => {
    // Act
    const act = () => prepare(query);
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow(message);
    expect(act).toThrow(query);
  });

  it('raises a RequestError when the hint holds several strings', () => {
    // Prepare
    const spec = makeSpec({ scheduler_hints: { query: ['["=", 1, 1]', '["=", 2, 2]'] } });
    // Act
    const act = () => filter.prepare?.(spec, makeContext());
    // Assess
    expect(act).toThrow(/one JSON string, got 2/);
  });

  it.each([
    [
      'ordering a string stat against a number',
      ['<', '$stats.x', 5],
      /cannot compare '5' < 5; note that host stats values are strings/,
    ],
    [
      'ordering $host_ip against a string',
      ['<', '$host_ip', '10.0.0.2'],
      /cannot compare IPAddress\('10.0.0.1'\) < '10.0.0.2'/,
    ],
    ['ordering dicts', ['<', {}, { a: 1 }], /cannot compare \{\} < \{'a': 1\}/],
    ['reading a key of a number', ['=', '$free_ram_mb.x', 1], /\$free_ram_mb\.x: 2048 has no key 'x'/],
  ])('raises a RequestError naming the host for %s (Python raises)', (_name, query, message) => {
    // Act
    const act = () => passes(query, host);
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow(message);
    expect(act).toThrow(/on host host1/);
  });

  it('evaluates the parsed query again for each host', () => {
    // Prepare
    const { spec, ctx, state } = prepare(['>=', '$free_ram_mb', 1024]);
    const hosts = [makeHost({ host: 'a', free_ram_mb: 512 }), makeHost({ host: 'b', free_ram_mb: 4096 })];
    // Act
    const results = hosts.map((h) => filter.check(h, spec, state as never, ctx) === PASS);
    // Assess
    expect(results).toEqual([false, true]);
  });

  it('explains with the query and the values it read from the host', () => {
    // Prepare
    const query = ['and', ['>=', '$free_ram_mb', 4096], ['=', '$stats.x', 5], ['=', '$missing', 1]];
    const { spec, ctx, state } = prepare(query);
    // Act
    const reason = rejectionMessage(filter, makeHost(host), spec, state as never, ctx);
    // Assess
    expect(reason).toBe(
      `host host1 does not satisfy the JsonFilter query ${JSON.stringify(query)} (with $free_ram_mb=2048, $stats.x='5', $missing=None)`,
    );
  });
});
