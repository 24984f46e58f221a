import { describe, expect, it } from 'vitest';
import { flavorPlacementSpecs, imageRequiredTraits } from '../../../lib/engine/prefilter/extraSpecs.js';
import { parseCpuSpec } from '../../../lib/engine/prefilter/pinning.js';
import { RequestError } from '../../../lib/model/errors.js';
import { makeSpec } from '../../helpers/factories.js';
import { computeHost, prefilter } from './helpers.js';

describe('flavorPlacementSpecs', () => {
  it('reads resources and traits per group, ignoring other extra specs', () => {
    // Act
    const specs = flavorPlacementSpecs({
      'resources:VCPU': '2',
      'resources1:CUSTOM_NIC': '1',
      'trait:HW_CPU_X86_AVX2': 'required',
      'trait2:CUSTOM_SLOW': 'forbidden',
      'hw:cpu_policy': 'shared',
      'capabilities:cpu_info': 'x',
    });
    // Assess
    expect(specs.groups).toEqual(
      new Map([
        ['', new Map([['VCPU', 2]])],
        ['1', new Map([['CUSTOM_NIC', 1]])],
      ]),
    );
    expect([...specs.required]).toEqual(['HW_CPU_X86_AVX2']);
    expect([...specs.forbidden]).toEqual(['CUSTOM_SLOW']);
  });

  it.each([
    [
      'resources:VCPU',
      'abc',
      'flavor extra spec "resources:VCPU"="abc": the amount must be a non-negative integer',
    ],
    ['resources:VCPU', '-1', '"resources:VCPU"="-1": the amount must be a non-negative integer'],
    ['resources:VCPU', '1.5', '"resources:VCPU"="1.5": the amount must be a non-negative integer'],
    ['resources:VCPUS', '1', '"resources:VCPUS": "VCPUS" is not a resource class'],
    ['resources:custom_gpu', '1', '"resources:custom_gpu": "custom_gpu" is not a resource class'],
    ['trait:HW_CPU_X86_AVX2', 'maybe', '"trait:HW_CPU_X86_AVX2"="maybe": must be "required" or "forbidden"'],
    ['trait:lower_case', 'required', '"trait:lower_case": "lower_case" is not a trait name'],
  ])('rejects %s=%s with a RequestError naming key and value', (key, value, message) => {
    // Act
    const parse = () => flavorPlacementSpecs({ [key]: value });
    // Assess
    expect(parse).toThrow(RequestError);
    expect(parse).toThrow(message);
  });

  it('accepts Python-style integers with surrounding spaces', () => {
    // Act
    const specs = flavorPlacementSpecs({ 'resources:MEMORY_MB': ' 1024 ' });
    // Assess
    expect(specs.groups.get('')?.get('MEMORY_MB')).toBe(1024);
  });
});

describe('imageRequiredTraits', () => {
  it('keeps trait:NAME properties whose value is required and ignores the rest', () => {
    // Act
    const traits = imageRequiredTraits({
      'trait:HW_GPU_API_VULKAN': 'required',
      'trait:CUSTOM_A': 'no',
      os_type: 'linux',
    });
    // Assess
    expect(traits).toEqual(['HW_GPU_API_VULKAN']);
  });
});

describe('CPU pinning extra specs', () => {
  it.each([
    [{ 'hw:cpu_policy': 'pinned' }, {}, '"hw:cpu_policy"="pinned": must be one of dedicated, shared, mixed'],
    [
      { 'hw:cpu_policy': 'shared' },
      { hw_cpu_policy: 'dedicated' },
      'hw_cpu_policy=dedicated conflicts with flavor',
    ],
    [{ 'hw:cpu_thread_policy': 'always' }, {}, '"hw:cpu_thread_policy"="always"'],
    [{ 'hw:cpu_policy': 'dedicated', 'hw:emulator_threads_policy': 'x' }, {}, 'must be share or isolate'],
    [{ 'hw:cpu_policy': 'mixed' }, {}, 'hw:cpu_policy=mixed needs hw:cpu_dedicated_mask'],
    [
      { 'hw:cpu_policy': 'mixed', 'hw:cpu_dedicated_mask': '0-1' },
      {},
      'at least one dedicated and one shared CPU',
    ],
    [{ 'hw:cpu_policy': 'mixed', 'hw:cpu_dedicated_mask': 'a' }, {}, 'invalid CPU set expression "a"'],
  ])('rejects %j (image %j) with a RequestError', (extra_specs, properties, message) => {
    // Prepare
    const spec = makeSpec({
      flavor: { name: 'f', vcpus: 2, memory_mb: 512, extra_specs },
      image: { properties },
    });
    // Act
    const run = () => prefilter([computeHost()], spec);
    // Assess
    expect(run).toThrow(RequestError);
    expect(run).toThrow(message);
  });

  it.each([
    ['1-4,^3,6', [1, 2, 4, 6]],
    ['0, 2 ,,5-6', [0, 2, 5, 6]],
    ['0-3,^1-2', [0, 3]],
  ])('parses the CPU set %s', (spec, cpus) => {
    // Act
    const parsed = parseCpuSpec(spec, 'hw:cpu_dedicated_mask');
    // Assess
    expect([...parsed].sort()).toEqual(cpus);
  });
});
