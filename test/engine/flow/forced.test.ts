import { describe, expect, it } from 'vitest';
import { ComputeFilter } from '../../../lib/engine/filters/ComputeFilter.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import { makeConfig, makeSpec } from '../../helpers/factories.js';
import { node, schedule, selected, spyFilter, weighed } from './flow.js';

const disabled = { disabled: true, up: true };

function fleet() {
  return [
    node('Alpha', { nodename: 'alpha-n1', free_ram_mb: 1000 }),
    node('Alpha', { nodename: 'alpha-n2', free_ram_mb: 2000, service: disabled }),
    node('beta', { nodename: 'beta-n1', free_ram_mb: 4000, service: disabled }),
    node('gamma', { nodename: 'gamma-n1', free_ram_mb: 8000 }),
  ];
}

const nodes = (d: Awaited<ReturnType<typeof schedule>>) => (d.weighed ?? []).map((w) => w.host.nodename);

describe('forced hosts and nodes, ignore_hosts, requested_destination (Nova get_filtered_hosts)', () => {
  it('matches force_hosts case-insensitively', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ force_hosts: ['ALPHA'] }), { weighers: [RAMWeigher] });
    // Assess
    expect(nodes(d)).toEqual(['alpha-n2', 'alpha-n1']);
  });

  it('matches force_nodes exactly', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ force_nodes: ['ALPHA-N1', 'beta-n1'] }), {
      weighers: [RAMWeigher],
    });
    // Assess
    expect(nodes(d)).toEqual(['beta-n1']);
  });

  it('keeps only nodes matching both force_hosts and force_nodes', async () => {
    // Act
    const d = await schedule(
      fleet(),
      makeSpec({ force_hosts: ['alpha'], force_nodes: ['alpha-n2', 'gamma-n1'] }),
    );
    // Assess
    expect(nodes(d)).toEqual(['alpha-n2']);
  });

  it('skips every filter for a forced host', async () => {
    // Prepare
    const spy = spyFilter('SpyFilter');
    // Act
    const d = await schedule(fleet(), makeSpec({ force_hosts: ['beta'] }), {
      filters: [ComputeFilter, spy.filter],
    });
    // Assess
    expect([selected(d), spy.calls, d.filter_counts]).toEqual([['beta'], [], []]);
  });

  it('still weighs the forced hosts', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ force_hosts: ['alpha', 'gamma'] }), {
      weighers: [RAMWeigher],
    });
    // Assess
    expect(weighed(d)).toEqual([
      ['gamma', 1],
      ['Alpha', 0.25],
      ['Alpha', 0.125],
    ]);
  });

  it('runs the filters on forced hosts when the request carries _nova_check_type', async () => {
    // Prepare
    const spec = makeSpec({
      force_hosts: ['beta', 'gamma'],
      scheduler_hints: { _nova_check_type: ['resize'] },
    });
    // Act
    const d = await schedule(fleet(), spec, { filters: [ComputeFilter] });
    // Assess
    expect(selected(d)).toEqual(['gamma']);
  });

  it('skips the filters when _nova_check_type is present but empty (falsy in Nova)', async () => {
    // Prepare
    const spec = makeSpec({ force_hosts: ['beta'], scheduler_hints: { _nova_check_type: [] } });
    // Act
    const d = await schedule(fleet(), spec, { filters: [ComputeFilter] });
    // Assess
    expect(selected(d)).toEqual(['beta']);
  });

  it('applies ignore_hosts (case-insensitively) before force_hosts', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ ignore_hosts: ['GAMMA'], force_hosts: ['gamma', 'beta'] }));
    // Assess
    expect(selected(d)).toEqual(['beta']);
  });

  it('runs the filters when only ignore_hosts narrows the list', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ ignore_hosts: ['gamma'] }), { filters: [ComputeFilter] });
    // Assess
    expect(nodes(d)).toEqual(['alpha-n1']);
  });

  it('fails with NoValidHost when the forced hosts match nothing', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ force_hosts: ['delta'] }));
    // Assess
    expect([d.error?.type, d.placements]).toEqual(['NoValidHost', []]);
  });

  it('fails without running any filter when ignore_hosts removes every host', async () => {
    // Prepare
    const spy = spyFilter('SpyFilter');
    // Act
    const d = await schedule(fleet(), makeSpec({ ignore_hosts: ['alpha', 'beta', 'gamma'] }), {
      filters: [spy.filter],
    });
    // Assess
    expect([d.error?.type, d.filter_counts]).toEqual(['NoValidHost', []]);
  });

  it('narrows to requested_destination host and still runs the filters', async () => {
    // Prepare
    const spec = makeSpec({ requested_destination: { host: 'Alpha' } });
    // Act
    const d = await schedule(fleet(), spec, { filters: [ComputeFilter] });
    // Assess
    expect(nodes(d)).toEqual(['alpha-n1']);
  });

  it('matches requested_destination host exactly (case matters)', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ requested_destination: { host: 'alpha' } }));
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });

  it('finds a requested_destination host written in another case once Placement resolves it to one node', async () => {
    // Prepare: Nova's compute-node lookup ignores case and rewrites the destination to the node it found.
    const room = { total_usable_ram_mb: 4096, free_ram_mb: 4096, vcpus_total: 4, total_usable_disk_gb: 10 };
    const hosts = [node('Delta', room), node('echo', room)];
    // Act
    const d = await schedule(hosts, makeSpec({ requested_destination: { host: 'DELTA' } }), {
      config: makeConfig(),
    });
    // Assess
    expect(selected(d)).toEqual(['Delta']);
  });

  it('matches nothing for an empty requested_destination host (the field is set)', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ requested_destination: { host: '' } }));
    // Assess
    expect(d.error?.type).toBe('NoValidHost');
  });

  it('narrows to requested_destination host and node', async () => {
    // Act
    const d = await schedule(
      fleet(),
      makeSpec({ requested_destination: { host: 'Alpha', node: 'alpha-n2' } }),
    );
    // Assess
    expect(nodes(d)).toEqual(['alpha-n2']);
  });

  it('explains hosts dropped by ignore_hosts and force_hosts', async () => {
    // Act
    const d = await schedule(fleet(), makeSpec({ ignore_hosts: ['gamma'], force_hosts: ['beta'] }));
    // Assess
    expect(d.eliminated().map((e) => [e.nodename, e.filter])).toEqual([
      ['gamma-n1', 'ignore_hosts'],
      ['alpha-n1', 'force_hosts'],
      ['alpha-n2', 'force_hosts'],
    ]);
  });

  it('explains hosts dropped by force_nodes and requested_destination', async () => {
    // Act
    const d = await schedule(
      fleet(),
      makeSpec({ requested_destination: { host: 'Alpha' }, force_nodes: ['alpha-n2'] }),
    );
    // Assess
    expect(d.eliminated().map((e) => [e.nodename, e.filter])).toEqual([
      ['beta-n1', 'requested_destination'],
      ['gamma-n1', 'requested_destination'],
      ['alpha-n1', 'force_nodes'],
    ]);
  });
});
