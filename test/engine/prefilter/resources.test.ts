import { describe, expect, it } from 'vitest';
import type { HostStateInput } from '../../../lib/model/hostSchema.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { computeHost, prefilter, removed } from './helpers.js';

type Flavor = RequestSpecInput['flavor'];
const flavor = (f: Partial<Flavor> = {}): Flavor => ({
  name: 'f',
  vcpus: 1,
  memory_mb: 512,
  root_gb: 1,
  ...f,
});

interface Case {
  name: string;
  host?: Partial<HostStateInput>;
  spec?: Partial<RequestSpecInput>;
  config?: Parameters<typeof makeConfig>[0];
  /** null: the host is kept. */
  stage: string | null;
  reason?: string;
}

const cases: Case[] = [
  { name: 'a host with room is kept', stage: null },
  {
    name: 'VCPU beyond total × cpu_allocation_ratio is refused',
    host: { vcpus_total: 4, vcpus_used: 15, cpu_allocation_ratio: 4 },
    spec: { flavor: flavor({ vcpus: 2 }) },
    stage: 'Placement:VCPU',
    reason: 'needs 2 VCPU; 1 VCPU free of 16 (4 total - 0 reserved, × cpu_allocation_ratio 4.0; 15 used)',
  },
  {
    name: 'VCPU up to exactly the overcommitted capacity fits',
    host: { vcpus_total: 4, vcpus_used: 14, cpu_allocation_ratio: 4 },
    spec: { flavor: flavor({ vcpus: 2 }) },
    stage: null,
  },
  {
    name: 'reserved_host_cpus is taken off before the ratio applies',
    host: { vcpus_total: 4, vcpus_used: 7, cpu_allocation_ratio: 4 },
    spec: { flavor: flavor({ vcpus: 2 }) },
    config: { DEFAULT: { reserved_host_cpus: 2 } },
    stage: 'Placement:VCPU',
    reason: '1 VCPU free of 8 (4 total - 2 reserved',
  },
  {
    name: 'one guest never gets more vCPUs than the host has (max_unit)',
    host: { vcpus_total: 16, cpu_allocation_ratio: 16 },
    spec: { flavor: flavor({ vcpus: 20 }) },
    stage: 'Placement:VCPU',
    reason: 'needs 20 VCPU; one allocation may take at most 16 VCPU here (max_unit)',
  },
  {
    name: 'MEMORY_MB beyond free RAM is refused at ratio 1.0',
    host: { free_ram_mb: 2048 },
    spec: { flavor: flavor({ memory_mb: 4096 }) },
    stage: 'Placement:MEMORY_MB',
    reason:
      'needs 4096 MB RAM; 2048 MB free of 15872 (16384 total - 512 reserved, × ram_allocation_ratio 1.0; 13824 used)',
  },
  {
    name: 'MEMORY_MB equal to free RAM fits at ratio 1.0',
    host: { free_ram_mb: 4096 },
    spec: { flavor: flavor({ memory_mb: 4096 }) },
    stage: null,
  },
  {
    name: 'ram_allocation_ratio above 1 overcommits memory',
    host: { free_ram_mb: 2048, ram_allocation_ratio: 1.5 },
    spec: { flavor: flavor({ memory_mb: 4096 }) },
    stage: null,
  },
  {
    name: 'DISK_GB counts root + ephemeral + swap rounded up to GB (52 GB into 52 free)',
    host: { disk_mb_used: 48 * 1024 },
    spec: { flavor: flavor({ root_gb: 40, ephemeral_gb: 10, swap: 1025 }) },
    stage: null,
  },
  {
    name: 'DISK_GB swap of 2049 MB counts as 3 GB (53 GB into 52 free)',
    host: { disk_mb_used: 48 * 1024 },
    spec: { flavor: flavor({ root_gb: 40, ephemeral_gb: 10, swap: 2049 }) },
    stage: 'Placement:DISK_GB',
    reason: 'needs 53 GB disk; 52 GB free of 100',
  },
  {
    name: 'boot-from-volume does not count root_gb',
    spec: { flavor: flavor({ root_gb: 500 }), is_bfv: true },
    stage: null,
  },
  {
    name: 'reserved_host_disk_mb is reserved in whole GB and not counted as used',
    host: { disk_mb_used: 10 * 1024 },
    spec: { flavor: flavor({ root_gb: 91 }) },
    config: { DEFAULT: { reserved_host_disk_mb: 10 * 1024 } },
    stage: 'Placement:DISK_GB',
    reason: '90 GB free of 90 (100 total - 10 reserved',
  },
  {
    name: 'a flavor without disk does not need DISK_GB inventory',
    host: { total_usable_disk_gb: 0 },
    spec: { flavor: flavor({ root_gb: 0 }) },
    stage: null,
  },
  {
    name: 'a host without disk cannot take a flavor with disk',
    host: { total_usable_disk_gb: 0 },
    stage: 'Placement:DISK_GB',
    reason: 'needs 1 GB disk; the host has no DISK_GB inventory',
  },
  {
    name: 'a host whose compute record is not ready has no inventory',
    host: { vcpus_total: 0, total_usable_ram_mb: 0, free_ram_mb: 0 },
    stage: 'Placement:inventory',
    reason: 'compute record is not ready',
  },
  {
    name: 'resources:VCPU=0 drops the VCPU request',
    host: { vcpus_total: 0 },
    spec: { flavor: flavor({ extra_specs: { 'resources:VCPU': '0' } }) },
    stage: null,
  },
  {
    name: 'resources:MEMORY_MB overrides the flavor memory',
    host: { free_ram_mb: 2048 },
    spec: { flavor: flavor({ memory_mb: 8192, extra_specs: { 'resources:MEMORY_MB': '1024' } }) },
    stage: null,
  },
  {
    name: 'a custom resource class needs an inventory of it',
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_GPU': '1' } }) },
    stage: 'Placement:CUSTOM_GPU',
    reason: 'needs 1 CUSTOM_GPU; the host has no CUSTOM_GPU inventory',
  },
  {
    name: 'a custom resource class fits an inventory with room',
    host: { inventories: { CUSTOM_GPU: { total: 2, used: 1 } } },
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_GPU': '1' } }) },
    stage: null,
  },
  {
    name: 'amounts of one class in several groups add up',
    host: { inventories: { CUSTOM_NIC: { total: 1, used: 0 } } },
    spec: {
      flavor: flavor({ extra_specs: { 'resources1:CUSTOM_NIC': '1', 'resources_b:CUSTOM_NIC': '1' } }),
    },
    stage: 'Placement:CUSTOM_NIC',
    reason:
      'needs 2 CUSTOM_NIC; 1 CUSTOM_NIC free of 1 (1 total - 0 reserved, × allocation_ratio 1.0; 0 used)',
  },
  {
    name: 'an inventory max_unit caps a single allocation',
    host: { inventories: { CUSTOM_X: { total: 8, used: 0, max_unit: 2 } } },
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_X': '4' } }) },
    stage: 'Placement:CUSTOM_X',
    reason: 'at most 2 CUSTOM_X here (max_unit)',
  },
  {
    name: 'an inventory min_unit refuses smaller allocations',
    host: { inventories: { CUSTOM_X: { total: 8, used: 0, min_unit: 2 } } },
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_X': '1' } }) },
    stage: 'Placement:CUSTOM_X',
    reason: 'at least 2 (min_unit)',
  },
  {
    name: 'an inventory step_size refuses amounts off the step',
    host: { inventories: { CUSTOM_X: { total: 8, used: 0, step_size: 2 } } },
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_X': '3' } }) },
    stage: 'Placement:CUSTOM_X',
    reason: 'a multiple of 2 (step_size)',
  },
  {
    name: 'inventory reserved and allocation_ratio apply to custom classes',
    host: { inventories: { CUSTOM_X: { total: 4, used: 5, reserved: 1, allocation_ratio: 2 } } },
    spec: { flavor: flavor({ extra_specs: { 'resources:CUSTOM_X': '2' } }) },
    stage: 'Placement:CUSTOM_X',
    reason: '1 CUSTOM_X free of 6 (4 total - 1 reserved, × allocation_ratio 2.0; 5 used)',
  },
  {
    name: 'hw:cpu_policy=dedicated asks for PCPU, which a PCPU inventory supplies',
    host: { vcpus_total: 1, inventories: { PCPU: { total: 4, used: 2 } } },
    spec: { flavor: flavor({ vcpus: 2, extra_specs: { 'hw:cpu_policy': 'dedicated' } }) },
    stage: null,
  },
  {
    name: 'hw:emulator_threads_policy=isolate adds one PCPU',
    host: { vcpus_total: 1, inventories: { PCPU: { total: 4, used: 2 } } },
    spec: {
      flavor: flavor({
        vcpus: 2,
        extra_specs: { 'hw:cpu_policy': 'dedicated', 'hw:emulator_threads_policy': 'isolate' },
      }),
    },
    stage: 'Placement:PCPU',
    reason: 'needs 3 PCPU; 2 PCPU free of 4',
  },
  {
    name: "a pinned guest falls back to VCPU on hosts without PCPU inventory (Nova's fallback query)",
    spec: { flavor: flavor({ vcpus: 2, extra_specs: { 'hw:cpu_policy': 'dedicated' } }) },
    stage: null,
  },
  {
    name: 'a pinned guest that fits neither query reports both',
    host: { vcpus_total: 1 },
    spec: { flavor: flavor({ vcpus: 2, extra_specs: { 'hw:cpu_policy': 'dedicated' } }) },
    stage: 'Placement:PCPU',
    reason:
      "needs 2 PCPU; the host has no PCPU inventory; Nova's VCPU fallback query for pinned guests fails too: needs 2 VCPU",
  },
  {
    name: 'hw:cpu_policy=mixed splits the guest into PCPU (dedicated mask) and VCPU',
    host: {
      vcpus_total: 2,
      vcpus_used: 7,
      cpu_allocation_ratio: 4,
      inventories: { PCPU: { total: 1, used: 0 } },
    },
    spec: {
      flavor: flavor({ vcpus: 2, extra_specs: { 'hw:cpu_policy': 'mixed', 'hw:cpu_dedicated_mask': '^0' } }),
    },
    stage: null,
  },
];

describe('placementPrefilter resources', () => {
  it.each(cases)('$name', ({ host, spec, config, stage, reason }) => {
    // Prepare
    const h = computeHost(host);
    // Act
    const result = prefilter([h], makeSpec(spec), makeConfig(config));
    // Assess
    if (stage === null) {
      expect(removed(result)).toEqual({});
      expect(result.hosts).toEqual([h]);
    } else {
      expect(result.hosts).toEqual([]);
      expect(removed(result).host1[0]).toBe(stage);
      expect(removed(result).host1[1]).toContain(reason);
    }
  });

  it('disable_fallback_pcpu_query turns the VCPU fallback off', () => {
    // Prepare
    const config = makeConfig();
    (config.workarounds as Record<string, unknown>).disable_fallback_pcpu_query = true;
    const spec = makeSpec({ flavor: flavor({ vcpus: 2, extra_specs: { 'hw:cpu_policy': 'dedicated' } }) });
    // Act
    const result = prefilter([computeHost()], spec, config);
    // Assess
    expect(removed(result).host1).toEqual(['Placement:PCPU', 'needs 2 PCPU; the host has no PCPU inventory']);
  });

  it('[DEFAULT] cpu_allocation_ratio gives the ratio only to hosts that report none', () => {
    // Prepare
    const reporting = computeHost({ vcpus_total: 4, vcpus_used: 7, cpu_allocation_ratio: 4 });
    const silent = computeHost({ host: 'host2', vcpus_total: 4, vcpus_used: 7, cpu_allocation_ratio: null });
    const config = makeConfig({ DEFAULT: { cpu_allocation_ratio: 2 } });
    // Act
    const result = prefilter([reporting, silent], makeSpec({ flavor: flavor({ vcpus: 2 }) }), config);
    // Assess
    expect(Object.keys(removed(result))).toEqual(['host2']);
    expect(removed(result).host2[1]).toContain(
      '1 VCPU free of 8 (4 total - 0 reserved, × cpu_allocation_ratio 2.0',
    );
  });
});
