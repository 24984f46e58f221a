import { describe, expect, it, vi } from 'vitest';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { AggregateInstanceExtraSpecsFilter } from '../../../lib/engine/filters/AggregateInstanceExtraSpecsFilter.js';
import { Fleet } from '../../../lib/engine/fleet.js';
import { RequestError } from '../../../lib/model/errors.js';
import type { HostState } from '../../../lib/model/hostState.js';
import { makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

const filter = AggregateInstanceExtraSpecsFilter;

function specWith(extra_specs: Record<string, string>) {
  return makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs } });
}

function hostIn(...metadata: Record<string, string>[]): HostState {
  return makeHost({ aggregates: metadata.map((m, i) => ({ name: `agg${i}`, metadata: m })) });
}

function prepare(extraSpecs: Record<string, string>) {
  const spec = specWith(extraSpecs);
  const ctx = makeContext();
  return { spec, ctx, state: filter.prepare?.(spec, ctx) };
}

function passes(extraSpecs: Record<string, string>, host: HostState): boolean {
  const { spec, ctx, state } = prepare(extraSpecs);
  if (state === PASS_ALL) return true;
  return filter.check(host, spec, state as never, ctx) === PASS;
}

describe('AggregateInstanceExtraSpecsFilter', () => {
  it('runs once per request and not on rebuild', () => {
    // Assess
    expect(filter.runFilterOncePerRequest).toBe(true);
    expect(filter.runOnRebuild).toBeFalsy();
  });

  it.each([
    ['a flavor without extra specs', {}],
    [
      'only other namespaces',
      { 'hw:cpu_policy': 'dedicated', 'capabilities:hypervisor_type': 'QEMU', 'trait:X': 'required' },
    ],
  ])('passes every host for %s', (_name, extraSpecs) => {
    // Act
    const { state } = prepare(extraSpecs);
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    [
      'a scoped key matches the metadata',
      { 'aggregate_instance_extra_specs:storage': 'ssd' },
      [{ storage: 'ssd' }],
      true,
    ],
    [
      'a scoped key can fail',
      { 'aggregate_instance_extra_specs:storage': 'ssd' },
      [{ storage: 'hdd' }],
      false,
    ],
    [
      'a scoped key missing from the metadata fails',
      { 'aggregate_instance_extra_specs:storage': 'ssd' },
      [{}],
      false,
    ],
    ['a bare key matches the metadata', { storage: 'ssd' }, [{ storage: 'ssd' }], true],
    ['a bare key missing from the metadata fails the host', { foo: 'bar' }, [{ storage: 'ssd' }], false],
    ['a host without aggregates fails', { storage: 'ssd' }, [], false],
    ['values are comma-split and stripped', { storage: 'ssd' }, [{ storage: 'hdd, ssd' }], true],
    [
      'values are unioned across aggregates',
      { storage: 'ssd' },
      [{ storage: 'hdd' }, { storage: 'ssd' }],
      true,
    ],
    ['any value may satisfy an operator', { cpu_gen: '>= 4' }, [{ cpu_gen: '3,5' }], true],
    ['no value satisfies the operator', { cpu_gen: '>= 4' }, [{ cpu_gen: '3' }], false],
    ['"=" means at least', { 'aggregate_instance_extra_specs:cpu_gen': '= 4' }, [{ cpu_gen: '5' }], true],
    ['<or> picks among values', { storage: '<or> nvme <or> ssd' }, [{ storage: 'ssd' }], true],
    [
      'the scope splits on the first colon only',
      { 'aggregate_instance_extra_specs:a:b': 'x' },
      [{ 'a:b': 'x' }],
      true,
    ],
    ['an empty metadata value is still a value', { storage: '' }, [{ storage: '' }], true],
    [
      'other namespaces are ignored beside ours',
      { 'hw:foo': 'x', storage: 'ssd' },
      [{ storage: 'ssd' }],
      true,
    ],
    ['every spec must match', { storage: 'ssd', cpu_gen: '>= 4' }, [{ storage: 'ssd', cpu_gen: '3' }], false],
  ])('%s', (_name, extraSpecs, metadata, expected) => {
    // Act
    const result = passes(extraSpecs, hostIn(...metadata));
    // Assess
    expect(result).toBe(expected);
  });

  it('raises a RequestError for a numeric operator on a non-numeric value', () => {
    // Act
    const act = () => passes({ cpu_gen: '>= 4' }, hostIn({ cpu_gen: 'fast' }));
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow("flavor extra spec cpu_gen='>= 4' compares numbers, but 'fast' is not a number");
  });

  it('evaluates hosts that share an aggregates array once per request', () => {
    // Prepare
    const fleet = Fleet.from([hostIn({ storage: 'ssd' }), hostIn({ storage: 'ssd' })]);
    const { spec, state } = prepare({ storage: 'ssd' });
    const ctx = { ...makeContext(), fleet };
    const metadata = vi.spyOn(fleet.memberships, 'metadata');
    // Act
    const answers = fleet.hosts.map((h) => filter.check(h, spec, state as never, ctx) === PASS);
    // Assess
    expect(fleet.hosts[0].aggregates).toBe(fleet.hosts[1].aggregates);
    expect(answers).toEqual([true, true]);
    expect(metadata).toHaveBeenCalledTimes(1);
  });

  it('does not reuse answers across requests', () => {
    // Prepare
    const host = hostIn({ storage: 'ssd' });
    passes({ storage: 'ssd' }, host);
    // Act
    const result = passes({ storage: 'hdd' }, host);
    // Assess
    expect(result).toBe(false);
  });

  it.each([
    [
      'names the missing metadata key and the host aggregates',
      { 'aggregate_instance_extra_specs:storage': 'ssd' },
      [{ cpu_gen: '3' }],
      "aggregate_instance_extra_specs:storage='ssd' needs aggregate metadata 'storage', which none of host1's aggregates (agg0) set",
    ],
    [
      'names a bare key on a host without aggregates',
      { foo: 'bar' },
      [],
      "foo='bar' needs aggregate metadata 'foo', which none of host1's aggregates (none) set",
    ],
    [
      'lists the values that did not match',
      { cpu_gen: '>= 4' },
      [{ cpu_gen: '2,3' }],
      "cpu_gen='>= 4' matches none of host1's aggregate values cpu_gen=2,3",
    ],
  ])('explain %s', (_name, extraSpecs, metadata, expected) => {
    // Prepare
    const { spec, ctx, state } = prepare(extraSpecs);
    // Act
    const reason = rejectionMessage(filter, hostIn(...metadata), spec, state as never, ctx);
    // Assess
    expect(reason).toContain(expected);
  });
});
