import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../../lib/engine/filters/ComputeFilter.js';
import { ImagePropertiesFilter } from '../../../lib/engine/filters/ImagePropertiesFilter.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { node, schedule, selected, spyFilter } from './flow.js';

const rebuild = { _nova_check_type: ['rebuild'] };

/** A rebuild as Nova's API sends it: forced to the instance's host and node, with the check type. */
const rebuildOf = (host: string, more: Parameters<typeof makeSpec>[0] = {}) =>
  makeSpec({ scheduler_hints: rebuild, force_hosts: [host], force_nodes: [host], ...more });

describe('rebuild (Nova _legacy_find_hosts, RUN_ON_REBUILD)', () => {
  it('skips the Placement pre-filter: a full host is still re-checked', async () => {
    // Prepare: no free RAM, so Placement would offer no candidate.
    const hosts = [node('a', { free_ram_mb: 0, total_usable_ram_mb: 2048, vcpus_total: 4 })];
    // Act
    const d = await schedule(hosts, rebuildOf('a'), { config: makeConfig() });
    // Assess
    expect(selected(d)).toEqual(['a']);
  });

  it('passes every host through a filter without RUN_ON_REBUILD', async () => {
    // Prepare
    const spy = spyFilter('SpyFilter', { passes: () => false });
    const hosts = [node('a', { service: { disabled: true, up: true } })];
    // Act
    const d = await schedule(hosts, rebuildOf('a'), { filters: [ComputeFilter, spy.filter] });
    // Assess
    expect([selected(d), spy.calls]).toEqual([['a'], []]);
  });

  it('still runs a filter with RUN_ON_REBUILD', async () => {
    // Prepare
    const hosts = [node('a', { supported_instances: [['x86_64', 'kvm', 'hvm']] })];
    const spec = rebuildOf('a', { image: { properties: { hw_architecture: 'aarch64' } } });
    // Act
    const d = await schedule(hosts, spec, { filters: [ImagePropertiesFilter] });
    // Assess
    expect(d.eliminated().map((e) => e.filter)).toEqual(['ImagePropertiesFilter']);
  });

  it('makes no claim (Nova does not call Placement for a rebuild)', async () => {
    // Prepare
    const claims: string[] = [];
    // Act
    const d = await schedule([node('a')], rebuildOf('a'), {
      options: {
        claim: (h) => {
          claims.push(h.host);
          return false;
        },
      },
    });
    // Assess
    expect([selected(d), claims]).toEqual([['a'], []]);
  });

  it('returns no alternates (Nova’s conductor does not ask for them on a rebuild)', async () => {
    // Prepare: even a rebuild that is not forced to one host gets none.
    const spec = makeSpec({ scheduler_hints: rebuild });
    // Act
    const d = await schedule([node('a'), node('b'), node('c')], spec);
    // Assess
    expect(d.placements.map((p) => p.alternates)).toEqual([[]]);
  });

  it('treats only exactly ["rebuild"] as a rebuild', async () => {
    // Prepare
    const hosts = [node('a', { service: { disabled: true, up: true } })];
    const spec = makeSpec({ scheduler_hints: { _nova_check_type: ['rebuild', 'x'] } });
    // Act
    const d = await schedule(hosts, spec, { filters: [ComputeFilter] });
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });
});
