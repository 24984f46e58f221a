import { describe, expect, it } from 'vitest';
import { NoValidHostError } from '../../../lib/engine/errors.js';
import type { Aggregate } from '../../../lib/model/hostState.js';
import type { RequestSpecInput } from '../../../lib/model/requestSchema.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { computeHost, kept, prefilter, removed } from './helpers.js';

const agg = (name: string, metadata: Record<string, string>): Aggregate => ({
  name,
  uuid: `uuid-${name}`,
  hosts: [],
  metadata,
});

describe('map_az_to_placement_aggregate', () => {
  const zoned = () => [
    computeHost({ host: 'h1', aggregates: [agg('z1', { availability_zone: 'az1' })] }),
    computeHost({ host: 'h2', aggregates: [agg('z2', { availability_zone: 'az2' })] }),
    computeHost({ host: 'h3' }),
  ];

  it('keeps only hosts in an aggregate of the requested zone', () => {
    // Act
    const result = prefilter(zoned(), makeSpec({ availability_zone: 'az1' }));
    // Assess
    expect(kept(result)).toEqual(['h1']);
    expect(removed(result).h2).toEqual([
      'map_az_to_placement_aggregate',
      'is in none of the aggregates of availability zone az1 (z1); its aggregates: z2',
    ]);
  });

  it('does not narrow when no aggregate has the zone and hosts report none (Nova)', () => {
    // Act
    const result = prefilter(zoned(), makeSpec({ availability_zone: 'nova' }));
    // Assess
    expect(kept(result)).toEqual(['h1', 'h2', 'h3']);
  });

  it('falls back to the hosts own availability_zone field when no aggregate has the zone (Placid)', () => {
    // Prepare
    const hosts = [
      computeHost({ host: 'h1', availability_zone: 'az9' }),
      computeHost({ host: 'h2', availability_zone: 'az8' }),
      computeHost({ host: 'h3' }),
      computeHost({
        host: 'h4',
        availability_zone: 'az9',
        aggregates: [agg('z1', { availability_zone: 'az1' })],
      }),
    ];
    // Act
    const result = prefilter(hosts, makeSpec({ availability_zone: 'az9' }));
    // Assess
    expect(kept(result)).toEqual(['h1']);
    expect(removed(result).h3).toEqual([
      'map_az_to_placement_aggregate',
      "is in availability zone nova (the default), not az9 (no aggregate defines that zone, so the hosts' own availability_zone field decides)",
    ]);
    expect(removed(result).h4[1]).toMatch(/^is in availability zone az1, not az9/);
  });

  it('puts hosts without the field in the default zone under the Placid fallback', () => {
    // Prepare
    const hosts = [computeHost({ host: 'h1', availability_zone: 'az9' }), computeHost({ host: 'h2' })];
    // Act
    const result = prefilter(hosts, makeSpec({ availability_zone: 'nova' }));
    // Assess
    expect(kept(result)).toEqual(['h2']);
  });
});

describe('require_tenant_aggregate', () => {
  const hosts = () => [
    computeHost({ host: 'mine', aggregates: [agg('t1', { filter_tenant_id: 'p1' })] }),
    computeHost({ host: 'mine2', aggregates: [agg('t2', { filter_tenant_id_2: 'p1', other: 'x' })] }),
    computeHost({ host: 'theirs', aggregates: [agg('t3', { filter_tenant_id: 'p2' })] }),
    computeHost({ host: 'untagged' }),
  ];
  const enabled = makeConfig({ scheduler: { limit_tenants_to_placement_aggregate: true } });

  it.each([
    {
      name: 'is off by default',
      config: makeConfig(),
      project: 'p1',
      expected: ['mine', 'mine2', 'theirs', 'untagged'],
    },
    {
      name: 'keeps hosts in any filter_tenant_id* aggregate of the project',
      config: enabled,
      project: 'p1',
      expected: ['mine', 'mine2'],
    },
    {
      name: 'does not narrow for a project without aggregates',
      config: enabled,
      project: 'p3',
      expected: ['mine', 'mine2', 'theirs', 'untagged'],
    },
  ])('$name', ({ config, project, expected }) => {
    // Act
    const result = prefilter(hosts(), makeSpec({ project_id: project }), config);
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('names the stage and the tenant in the reason', () => {
    // Act
    const result = prefilter(hosts(), makeSpec({ project_id: 'p1' }), enabled);
    // Assess
    expect(removed(result).theirs[0]).toBe('require_tenant_aggregate');
    expect(removed(result).theirs[1]).toContain(
      'is in none of the aggregates of tenant p1 (filter_tenant_id* metadata) (t1, t2); its aggregates: t3',
    );
  });

  it('fails the request when an aggregate is required and the project has none', () => {
    // Prepare
    const config = makeConfig({
      scheduler: {
        limit_tenants_to_placement_aggregate: true,
        placement_aggregate_required_for_tenants: true,
      },
    });
    // Act
    const run = () => prefilter(hosts(), makeSpec({ project_id: 'p3' }), config);
    // Assess
    expect(run).toThrow(NoValidHostError);
    expect(run).toThrow('No hosts available for tenant p3');
  });
});

describe('isolate_aggregates', () => {
  const hosts = () => [
    computeHost({
      host: 'gpu',
      aggregates: [agg('gpu', { 'trait:CUSTOM_GPU': 'required' })],
      traits: ['CUSTOM_GPU'],
    }),
    computeHost({ host: 'plain', traits: ['CUSTOM_GPU'] }),
  ];
  const enabled = makeConfig({ scheduler: { enable_isolated_aggregate_filtering: true } });
  const gpuFlavor: Partial<RequestSpecInput> = {
    flavor: { name: 'g', vcpus: 1, memory_mb: 512, extra_specs: { 'trait:CUSTOM_GPU': 'required' } },
  };

  it.each([
    { name: 'is off by default', config: makeConfig(), spec: {}, expected: ['gpu', 'plain'] },
    {
      name: 'keeps requests without the trait out of the aggregate',
      config: enabled,
      spec: {},
      expected: ['plain'],
    },
    {
      name: 'lets requests requiring the trait in',
      config: enabled,
      spec: gpuFlavor,
      expected: ['gpu', 'plain'],
    },
    {
      name: 'counts image trait properties as required',
      config: enabled,
      spec: { image: { properties: { 'trait:CUSTOM_GPU': 'required' } } },
      expected: ['gpu', 'plain'],
    },
  ])('$name', ({ config, spec, expected }) => {
    // Act
    const result = prefilter(hosts(), makeSpec(spec), config);
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('names the aggregate in the reason', () => {
    // Act
    const result = prefilter(hosts(), makeSpec(), enabled);
    // Assess
    expect(removed(result).gpu[0]).toBe('isolate_aggregates');
    expect(removed(result).gpu[1]).toContain('is in aggregate gpu, excluded by isolate_aggregates');
  });
});

describe('image request filters', () => {
  const imageType = makeConfig({ scheduler: { query_placement_for_image_type_support: true } });
  const metadata = makeConfig({ scheduler: { image_metadata_prefilter: true } });
  const hosts = () => [
    computeHost({
      host: 'full',
      traits: ['COMPUTE_IMAGE_TYPE_QCOW2', 'COMPUTE_STORAGE_BUS_VIRTIO', 'HW_ARCH_X86_64'],
    }),
    computeHost({ host: 'bare' }),
  ];

  it.each<{
    name: string;
    config: ReturnType<typeof makeConfig>;
    spec: Partial<RequestSpecInput>;
    expected: string[];
  }>([
    {
      name: 'require_image_type_support requires COMPUTE_IMAGE_TYPE_<FORMAT>',
      config: imageType,
      spec: { image: { disk_format: 'qcow2' } },
      expected: ['full'],
    },
    {
      name: 'require_image_type_support is skipped for boot-from-volume',
      config: imageType,
      spec: { image: { disk_format: 'qcow2' }, is_bfv: true },
      expected: ['full', 'bare'],
    },
    {
      name: 'require_image_type_support skips a format os-traits does not know',
      config: imageType,
      spec: { image: { disk_format: 'weird' } },
      expected: ['full', 'bare'],
    },
    {
      name: 'require_image_type_support is off by default',
      config: makeConfig(),
      spec: { image: { disk_format: 'qcow2' } },
      expected: ['full', 'bare'],
    },
    {
      name: 'transform_image_metadata requires a trait per hw_* property',
      config: metadata,
      spec: { image: { properties: { hw_disk_bus: 'virtio', hw_architecture: 'x86_64' } } },
      expected: ['full'],
    },
    {
      name: 'transform_image_metadata requires nothing when one property maps to an unknown trait',
      config: metadata,
      spec: { image: { properties: { hw_disk_bus: 'virtio', hw_video_model: 'fancy' } } },
      expected: ['full', 'bare'],
    },
    {
      name: 'transform_image_metadata requires nothing with hw_viommu_model (os-traits has no COMPUTE_VIOMMU_<V>)',
      config: metadata,
      spec: { image: { properties: { hw_disk_bus: 'virtio', hw_viommu_model: 'intel' } } },
      expected: ['full', 'bare'],
    },
  ])('$name', ({ config, spec, expected }) => {
    // Act
    const result = prefilter(hosts(), makeSpec(spec), config);
    // Assess
    expect(kept(result)).toEqual(expected);
  });

  it('transform_image_metadata upper-cases the value and turns - into _', () => {
    // Prepare
    const host = computeHost({ host: 'nic', traits: ['COMPUTE_NET_VIF_MODEL_SPAPR_VLAN'] });
    const spec = makeSpec({ image: { properties: { hw_vif_model: 'spapr-vlan' } } });
    // Act
    const result = prefilter([host, computeHost({ host: 'bare' })], spec, metadata);
    // Assess
    expect(kept(result)).toEqual(['nic']);
    expect(removed(result).bare).toEqual([
      'transform_image_metadata',
      'lacks trait COMPUTE_NET_VIF_MODEL_SPAPR_VLAN, required by image property hw_vif_model=spapr-vlan ([scheduler] image_metadata_prefilter)',
    ]);
  });
});
