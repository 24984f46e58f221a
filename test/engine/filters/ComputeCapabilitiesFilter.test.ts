import { describe, expect, it } from 'vitest';
import { PASS, PASS_ALL, rejectionMessage } from '../../../lib/engine/filter.js';
import { ComputeCapabilitiesFilter } from '../../../lib/engine/filters/ComputeCapabilitiesFilter.js';
import { RequestError } from '../../../lib/model/errors.js';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import { makeContext, makeHost, makeSpec } from '../../helpers/factories.js';

type HostInput = Partial<HostStateInput> & Record<string, unknown>;

function specWith(extra_specs: Record<string, string>) {
  return makeSpec({ flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs } });
}

/** Runs prepare then check, as the filter handler does. */
function passes(extraSpecs: Record<string, string>, host: HostInput): boolean {
  const spec = specWith(extraSpecs);
  const ctx = makeContext();
  const state = ComputeCapabilitiesFilter.prepare?.(spec, ctx);
  if (state === PASS_ALL) return true;
  return ComputeCapabilitiesFilter.check(makeHost(host), spec, state as never, ctx) === PASS;
}

function explain(extraSpecs: Record<string, string>, host: HostInput): string {
  const spec = specWith(extraSpecs);
  const ctx = makeContext();
  const state = ComputeCapabilitiesFilter.prepare?.(spec, ctx);
  return rejectionMessage(ComputeCapabilitiesFilter, makeHost(host), spec, state as never, ctx) ?? '';
}

const cpuInfo = {
  vendor: 'Intel',
  features: ['aes', 'mmx', 'sse'],
  topology: { cores: 8, threads: 2 },
  maxphysaddr: { bits: 46 },
};

describe('ComputeCapabilitiesFilter', () => {
  it('runs once per request and not on rebuild', () => {
    // Assess
    expect(ComputeCapabilitiesFilter.runFilterOncePerRequest).toBe(true);
    expect(ComputeCapabilitiesFilter.runOnRebuild).toBeFalsy();
  });

  it.each([
    ['a flavor without extra specs', {}],
    ['extra specs in other namespaces', { 'hw:cpu_policy': 'dedicated', 'trait:HW_CPU_X86_AVX': 'required' }],
    ['aggregate-scoped extra specs', { 'aggregate_instance_extra_specs:ssd': 'true', 'resources:VCPU': '2' }],
    ['a namespaced key whose namespace is not capabilities', { 'cpu_info:vendor': 'AMD' }],
  ])('passes every host for %s', (_name, extraSpecs) => {
    // Act
    const state = ComputeCapabilitiesFilter.prepare?.(specWith(extraSpecs), makeContext());
    // Assess
    expect(state).toBe(PASS_ALL);
  });

  it.each([
    ['a bare key the host lacks is ignored', { foo: 'bar' }, {}, true],
    ['a bare attribute is matched with the grammar', { free_ram_mb: '>= 300' }, { free_ram_mb: 1024 }, true],
    ['a bare attribute can fail', { free_ram_mb: '>= 300' }, { free_ram_mb: 200 }, false],
    ['a bare stats key is matched', { foo: 'bar' }, { stats: { foo: 'bar' } }, true],
    ['a bare stats key can fail', { foo: 'bar' }, { stats: { foo: 'baz' } }, false],
    ['a bare attribute that is None fails', { hypervisor_type: 'QEMU' }, { hypervisor_type: null }, false],
    [
      'stats stand in for an attribute that is None',
      { hypervisor_type: 'QEMU' },
      { hypervisor_type: null, stats: { hypervisor_type: 'QEMU' } },
      true,
    ],
    [
      'the attribute wins over stats',
      { 'capabilities:hypervisor_type': 'QEMU' },
      { hypervisor_type: 'QEMU', stats: { hypervisor_type: 'xen' } },
      true,
    ],
    [
      'a capabilities key is matched',
      { 'capabilities:hypervisor_type': 's== QEMU' },
      { hypervisor_type: 'QEMU' },
      true,
    ],
    ['a capabilities key the host lacks fails', { 'capabilities:nope': 'x' }, {}, false],
    ['an empty capabilities path fails', { 'capabilities:': 'x' }, {}, false],
    ['numbers compare as str()', { 'capabilities:vcpus_total': '16' }, { vcpus_total: 16 }, true],
    [
      'a bare cpu_info compares the raw JSON text',
      { cpu_info: '{"vendor": "Intel"}' },
      { cpu_info: '{"vendor": "Intel"}' },
      true,
    ],
    [
      'cpu_info is parsed when walking below it',
      { 'capabilities:cpu_info:vendor': 'Intel' },
      { cpu_info: cpuInfo },
      true,
    ],
    [
      'a list in cpu_info renders like Python for <all-in>',
      { 'capabilities:cpu_info:features': '<all-in> aes mmx' },
      { cpu_info: cpuInfo },
      true,
    ],
    [
      '<all-in> fails when a feature is missing',
      { 'capabilities:cpu_info:features': '<all-in> aes avx' },
      { cpu_info: cpuInfo },
      false,
    ],
    [
      'a list renders with Python quotes, so "<in> \'sse\'" matches',
      { 'capabilities:cpu_info:features': "<in> 'sse'" },
      { cpu_info: cpuInfo },
      true,
    ],
    [
      'nested dicts are walked',
      { 'capabilities:cpu_info:topology:cores': '>= 4' },
      { cpu_info: cpuInfo },
      true,
    ],
    [
      'a key missing from the dict fails',
      { 'capabilities:cpu_info:missing': 'x' },
      { cpu_info: cpuInfo },
      false,
    ],
    [
      'a list cannot be walked into',
      { 'capabilities:cpu_info:features:0': 'aes' },
      { cpu_info: cpuInfo },
      false,
    ],
    ['invalid JSON fails', { 'capabilities:cpu_info:vendor': 'Intel' }, { cpu_info: 'not json' }, false],
    [
      'JSON in a stats value is parsed',
      { 'capabilities:gpu:model': 'a100' },
      { stats: { gpu: '{"model": "a100"}' } },
      true,
    ],
    ['an operator attribute is read', { 'capabilities:rack': 'r1' }, { rack: 'r1' }, true],
    ['a bare operator attribute counts', { rack: 'r2' }, { rack: 'r1' }, false],
    [
      'an operator dict is walked',
      { 'capabilities:gpu:count': '>= 2' },
      { gpu: { model: 'a100', count: 4 } },
      true,
    ],
    ['a boolean compares as True', { 'capabilities:ssd': 'True' }, { ssd: true }, true],
    ['a boolean never equals lower-case true', { 'capabilities:ssd': 'true' }, { ssd: true }, false],
    [
      'a dict renders like Python',
      { 'capabilities:gpu': "{'model': 'a100'}" },
      { gpu: { model: 'a100' } },
      true,
    ],
    [
      'hw:maxphysaddr_bits is at least the host width',
      { 'hw:maxphysaddr_bits': '42' },
      { cpu_info: cpuInfo },
      true,
    ],
    [
      'hw:maxphysaddr_bits fails a narrower host',
      { 'hw:maxphysaddr_bits': '48' },
      { cpu_info: cpuInfo },
      false,
    ],
    [
      'hw:maxphysaddr_bits fails a host without the width',
      { 'hw:maxphysaddr_bits': '42' },
      { cpu_info: {} },
      false,
    ],
    [
      'every spec must match',
      { 'capabilities:hypervisor_type': 'QEMU', free_ram_mb: '>= 4096' },
      { hypervisor_type: 'QEMU', free_ram_mb: 1024 },
      false,
    ],
  ])('%s', (_name, extraSpecs, host, expected) => {
    // Act
    const result = passes(extraSpecs, host);
    // Assess
    expect(result).toBe(expected);
  });

  it.each([
    [
      'a numeric operator on a non-numeric host value',
      { 'capabilities:hypervisor_type': '>= 2' },
      "flavor extra spec capabilities:hypervisor_type='>= 2' compares numbers, but 'QEMU' is not a number",
    ],
    [
      '"<or>" with nothing after it',
      { 'capabilities:hypervisor_type': '<or>' },
      "flavor extra spec capabilities:hypervisor_type='<or>' has no value after '<or>' (host value 'QEMU')",
    ],
    [
      'a non-numeric hw:maxphysaddr_bits',
      { 'hw:maxphysaddr_bits': 'wide' },
      "flavor extra spec capabilities:cpu_info:maxphysaddr:bits='>= wide' compares numbers, but 'wide' is not a number",
    ],
  ])('raises a RequestError naming the key for %s', (_name, extraSpecs, message) => {
    // Act
    const act = () => passes(extraSpecs, { hypervisor_type: 'QEMU', cpu_info: cpuInfo });
    // Assess
    expect(act).toThrow(RequestError);
    expect(act).toThrow(message);
  });

  it.each([
    [
      'names the key, the requirement and the host value',
      { 'capabilities:hypervisor_type': 'QEMU' },
      { hypervisor_type: 'xen' },
      "capabilities:hypervisor_type='QEMU' does not match host1's hypervisor_type='xen'",
    ],
    [
      'says when the host does not report the capability',
      { 'capabilities:cpu_info:vendor': 'AMD' },
      {},
      "capabilities:cpu_info:vendor='AMD' needs host capability cpu_info:vendor, which host1 does not report",
    ],
    [
      'shows the translated maxphysaddr requirement',
      { 'hw:maxphysaddr_bits': '48' },
      { cpu_info: cpuInfo },
      "capabilities:cpu_info:maxphysaddr:bits='>= 48' does not match host1's cpu_info:maxphysaddr:bits='46'",
    ],
  ])('explain %s', (_name, extraSpecs, host, expected) => {
    // Act
    const reason = explain(extraSpecs, host);
    // Assess
    expect(reason).toContain(expected);
  });
});
