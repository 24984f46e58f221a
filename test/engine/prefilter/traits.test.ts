import { describe, expect, it } from 'vitest';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeSpec } from '../../helpers/factories.js';
import { computeHost, prefilter, removed } from './helpers.js';

const withSpecs = (extra_specs: Record<string, string>): Partial<RequestSpecInput> => ({
  flavor: { name: 'f', vcpus: 1, memory_mb: 512, extra_specs },
});

interface Case {
  name: string;
  host: Partial<HostStateInput>;
  spec: Partial<RequestSpecInput>;
  stage: string | null;
  reason?: string;
}

const cases: Case[] = [
  {
    name: 'a host with the required flavor trait is kept',
    host: { traits: ['HW_CPU_X86_AVX2', 'COMPUTE_NODE'] },
    spec: withSpecs({ 'trait:HW_CPU_X86_AVX2': 'required' }),
    stage: null,
  },
  {
    name: 'a host without the required flavor trait is removed',
    host: { traits: ['COMPUTE_NODE'] },
    spec: withSpecs({ 'trait:HW_CPU_X86_AVX2': 'required' }),
    stage: 'Placement:required_traits',
    reason: 'lacks trait HW_CPU_X86_AVX2, required by flavor extra spec trait:HW_CPU_X86_AVX2=required',
  },
  {
    name: 'a suffixed group trait is required too (a flat host is every group)',
    host: { traits: [] },
    spec: withSpecs({ 'trait1:CUSTOM_FAST': 'required' }),
    stage: 'Placement:required_traits',
  },
  {
    name: 'a host with a forbidden flavor trait is removed',
    host: { traits: ['CUSTOM_SLOW'] },
    spec: withSpecs({ 'trait:CUSTOM_SLOW': 'forbidden' }),
    stage: 'Placement:forbidden_traits',
    reason: 'has trait CUSTOM_SLOW, forbidden by flavor extra spec trait:CUSTOM_SLOW=forbidden',
  },
  {
    name: 'an image trait:NAME=required property requires the trait',
    host: { traits: [] },
    spec: { image: { properties: { 'trait:HW_GPU_API_VULKAN': 'required' } } },
    stage: 'Placement:required_traits',
    reason: 'required by image property trait:HW_GPU_API_VULKAN=required',
  },
  {
    name: 'hw:cpu_thread_policy=isolate forbids HW_CPU_HYPERTHREADING on pinned hosts',
    host: { vcpus_total: 1, traits: ['HW_CPU_HYPERTHREADING'], inventories: { PCPU: { total: 8, used: 0 } } },
    spec: {
      flavor: {
        name: 'f',
        vcpus: 2,
        memory_mb: 512,
        extra_specs: { 'hw:cpu_policy': 'dedicated', 'hw:cpu_thread_policy': 'isolate' },
      },
    },
    stage: 'Placement:forbidden_traits',
    reason: 'has trait HW_CPU_HYPERTHREADING, forbidden by the CPU thread policy (hw:cpu_thread_policy)',
  },
  {
    name: 'a disabled compute service is removed by compute_status_filter',
    host: { service: { disabled: true, up: true, disabled_reason: 'maintenance' } },
    spec: {},
    stage: 'compute_status_filter',
    reason: 'nova-compute is disabled (maintenance); compute_status_filter forbids COMPUTE_STATUS_DISABLED',
  },
  {
    name: 'a host reporting COMPUTE_STATUS_DISABLED itself is removed by compute_status_filter',
    host: { traits: ['COMPUTE_STATUS_DISABLED'] },
    spec: {},
    stage: 'compute_status_filter',
  },
];

describe('placementPrefilter traits', () => {
  it.each(cases)('$name', ({ host, spec, stage, reason }) => {
    // Prepare
    const h = computeHost(host);
    // Act
    const result = prefilter([h], makeSpec(spec));
    // Assess
    if (stage === null) expect(result.hosts).toEqual([h]);
    else {
      expect(result.hosts).toEqual([]);
      expect(removed(result).host1[0]).toBe(stage);
      if (reason) expect(removed(result).host1[1]).toContain(reason);
    }
  });

  it('a pinned guest with thread policy isolate still lands on a hyperthreaded host through the VCPU fallback', () => {
    // Prepare: no PCPU inventory, so only the fallback query (which carries no thread trait) can match.
    const host = computeHost({ traits: ['HW_CPU_HYPERTHREADING'] });
    const spec = makeSpec(withSpecs({ 'hw:cpu_policy': 'dedicated', 'hw:cpu_thread_policy': 'isolate' }));
    // Act
    const result = prefilter([host], spec);
    // Assess
    expect(result.hosts).toEqual([host]);
  });

  it('evaluates hosts that share a trait set independently of their order', () => {
    // Prepare
    const hosts = ['a', 'b', 'c', 'd'].map((name, i) =>
      computeHost({ host: name, traits: i % 2 === 0 ? ['CUSTOM_X'] : ['CUSTOM_Y'] }),
    );
    // Act
    const result = prefilter(hosts, makeSpec(withSpecs({ 'trait:CUSTOM_X': 'required' })));
    // Assess
    expect(result.hosts.map((h) => h.host)).toEqual(['a', 'c']);
  });
});
