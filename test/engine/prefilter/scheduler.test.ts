import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../../lib/engine/filters/ComputeFilter.js';
import { Scheduler } from '../../../lib/engine/scheduler.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import type { Aggregate } from '../../../lib/model/hostState.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { computeHost } from './helpers.js';

const zone = (az: string): Aggregate => ({
  name: az,
  uuid: `uuid-${az}`,
  hosts: [],
  metadata: { availability_zone: az },
});

function fleet() {
  return [
    computeHost({ host: 'a', free_ram_mb: 2048, aggregates: [zone('az1')] }),
    computeHost({ host: 'b', free_ram_mb: 8192, aggregates: [zone('az1')] }),
    computeHost({ host: 'c', free_ram_mb: 15000, aggregates: [zone('az2')] }),
    computeHost({
      host: 'd',
      free_ram_mb: 12000,
      aggregates: [zone('az1')],
      service: { disabled: true, up: true },
    }),
  ];
}

const flavor = { name: 'm', vcpus: 2, memory_mb: 4096, root_gb: 10 };

describe('Scheduler with the Placement pre-filter (placid.placement_prefilter, the default)', () => {
  const scheduler = new Scheduler(makeConfig(), [ComputeFilter], [RAMWeigher]);

  it('places on the best host the pre-filter and filters leave', async () => {
    // Act
    const d = await scheduler.schedule(fleet(), makeSpec({ flavor, availability_zone: 'az1' }), {
      explain: true,
    });
    // Assess
    expect(d.error).toBeNull();
    expect(d.placements.map((p) => p.host.host)).toEqual(['b']);
    expect(d.filter_counts[0]).toEqual({ filter: 'Placement', start: 4, end: 1, instance_index: 0 });
  });

  it('explains each pre-filter elimination with its stage', async () => {
    // Act
    const d = await scheduler.schedule(fleet(), makeSpec({ flavor, availability_zone: 'az1' }), {
      explain: true,
    });
    // Assess
    expect(d.eliminated().map((e) => [e.host, e.filter])).toEqual([
      ['a', 'Placement:MEMORY_MB'],
      ['c', 'map_az_to_placement_aggregate'],
      ['d', 'compute_status_filter'],
    ]);
    expect(d.eliminated()[0].reason).toBe(
      'needs 4096 MB RAM; 2048 MB free of 15872 (16384 total - 512 reserved, × ram_allocation_ratio 1.0; 13824 used)',
    );
  });

  it('answers NoValidHost when Placement would return no candidates', async () => {
    // Act
    const d = await scheduler.schedule(fleet(), makeSpec({ flavor: { ...flavor, memory_mb: 65536 } }));
    // Assess
    expect(d.error).toEqual({
      type: 'NoValidHost',
      message: 'No valid host was found. Placement returned no allocation candidates.',
    });
  });

  it('answers NoValidHost naming an unknown forced host', async () => {
    // Act
    const d = await scheduler.schedule(fleet(), makeSpec({ flavor, force_hosts: ['zzz'] }));
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
    expect(d.error?.message).toContain('No such host - host: zzz');
  });

  it('leaves rebuilds to the filters (no Placement query)', async () => {
    // Prepare
    const spec = makeSpec({
      flavor: { ...flavor, memory_mb: 65536 },
      scheduler_hints: { _nova_check_type: ['rebuild'] },
    });
    // Act
    const d = await scheduler.schedule(fleet(), spec);
    // Assess
    expect(d.error).toBeNull();
    expect(d.filter_counts.some((c) => c.filter === 'Placement')).toBe(false);
  });
});
