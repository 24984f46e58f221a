import { describe, expect, it } from 'vitest';
import { Fleet } from '../../../lib/engine/fleet.js';
import { makeConfig, makeContext, makeSpec } from '../../helpers/factories.js';
import { computeHost, kept, prefilter } from './helpers.js';
import { placementPrefilter } from './placementPrefilter.js';

describe('placementPrefilter', () => {
  const hosts = () => [
    computeHost({ host: 'ok1' }),
    computeHost({ host: 'full', free_ram_mb: 100 }),
    computeHost({ host: 'off', free_ram_mb: 100, service: { disabled: true, up: true } }),
    computeHost({ host: 'ok2' }),
  ];

  it('keeps the fitting hosts in their input order', () => {
    // Act
    const result = prefilter(hosts(), makeSpec());
    // Assess
    expect(kept(result)).toEqual(['ok1', 'ok2']);
  });

  it('reports the first failing stage in check order (request filters before resources)', () => {
    // Act
    const result = prefilter(hosts(), makeSpec());
    // Assess
    expect(result.removals.map((r) => [r.host.host, r.stage])).toEqual([
      ['full', 'Placement:MEMORY_MB'],
      ['off', 'compute_status_filter'],
    ]);
  });

  it('builds no removals when not recording', () => {
    // Act
    const result = prefilter(hosts(), makeSpec(), makeConfig(), false);
    // Assess
    expect(kept(result)).toEqual(['ok1', 'ok2']);
    expect(result.removals).toEqual([]);
  });

  it('gives the same answer on a second request over the same (indexed) hosts array', () => {
    // Prepare
    const fleet = Fleet.from(hosts());
    const ctx = makeContext(makeConfig());
    const first = placementPrefilter(fleet.hosts, makeSpec(), ctx, false);
    // Act
    const second = placementPrefilter(
      fleet.hosts,
      makeSpec({ flavor: { name: 'tiny', vcpus: 1, memory_mb: 64, root_gb: 1 } }),
      ctx,
      false,
    );
    // Assess
    expect(kept(first)).toEqual(['ok1', 'ok2']);
    expect(kept(second)).toEqual(['ok1', 'full', 'ok2']);
  });

  it('re-indexes a hosts array that grew in place', () => {
    // Prepare
    const list = hosts();
    const ctx = makeContext(makeConfig());
    placementPrefilter(list, makeSpec(), ctx, false);
    list.push(computeHost({ host: 'late' }));
    // Act
    const result = placementPrefilter(list, makeSpec(), ctx, false);
    // Assess
    expect(kept(result)).toEqual(['ok1', 'ok2', 'late']);
  });
});
