import { describe, expect, it } from 'vitest';
import { IoOpsFilter } from '../../../lib/engine/filters/IoOpsFilter.js';
import { NumInstancesFilter } from '../../../lib/engine/filters/NumInstancesFilter.js';
import { ServerGroupAffinityFilter } from '../../../lib/engine/filters/ServerGroupAffinityFilter.js';
import { ServerGroupAntiAffinityFilter } from '../../../lib/engine/filters/ServerGroupAntiAffinityFilter.js';
import { RAMWeigher } from '../../../lib/engine/weighers/RAMWeigher.js';
import { ServerGroupSoftAntiAffinityWeigher } from '../../../lib/engine/weighers/ServerGroupSoftAntiAffinityWeigher.js';
import { makeSpec } from '../../helpers/factories.js';
import { node, noPlacement, schedule, selected, spyFilter } from './flow.js';

const flavor = { name: 'm1', vcpus: 2, memory_mb: 1024, root_gb: 10, ephemeral_gb: 5, swap: 2048 };

describe('multi-instance flow (Nova _schedule loop)', () => {
  it('runs a once-per-request filter for the first instance only', async () => {
    // Prepare
    const once = spyFilter('OnceFilter', { once: true });
    const every = spyFilter('EveryFilter');
    const hosts = [node('a'), node('b')];
    // Act
    await schedule(hosts, makeSpec({ num_instances: 3 }), {
      filters: [once.filter, every.filter],
      options: { alternates: false },
    });
    // Assess
    expect(once.calls.map((c) => c.index)).toEqual([0, 0]);
    expect(every.calls.map((c) => c.index)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('offers later instances only the hosts that survived the previous instance', async () => {
    // Prepare: 'a' fails the per-instance filter for instance 0 only; Nova never looks at it again.
    const flaky = spyFilter('FlakyFilter', { passes: (h, _s, index) => !(h.host === 'a' && index === 0) });
    const hosts = [node('a', { free_ram_mb: 9000 }), node('b', { free_ram_mb: 4000 })];
    // Act
    const d = await schedule(hosts, makeSpec({ num_instances: 2 }), {
      filters: [flaky.filter],
      weighers: [RAMWeigher],
      options: { alternates: false },
    });
    // Assess
    expect(selected(d)).toEqual(['b', 'b']);
    expect(flaky.calls.filter((c) => c.index === 1).map((c) => c.host)).toEqual(['b']);
  });

  it('consumes RAM, root+ephemeral disk, vCPUs, one instance and one I/O op, but not swap', async () => {
    // Prepare
    const hosts = [
      node('a', {
        free_ram_mb: 8192,
        free_disk_mb: 102400,
        vcpus_total: 16,
        vcpus_used: 3,
        num_instances: 4,
        num_io_ops: 1,
      }),
    ];
    // Act
    const d = await schedule(hosts, makeSpec({ flavor, num_instances: 2 }));
    // Assess
    const after = d.placements.map((p) => p.host);
    expect(
      after.map((h) => [h.free_ram_mb, h.free_disk_mb, h.vcpus_used, h.num_instances, h.num_io_ops]),
    ).toEqual([
      [7168, 102400 - 15 * 1024, 5, 5, 2],
      [6144, 102400 - 30 * 1024, 7, 6, 3],
    ]);
  });

  it('leaves the caller’s host states and request untouched', async () => {
    // Prepare
    const hosts = [node('a', { free_ram_mb: 8192 })];
    const spec = makeSpec({ num_instances: 2, instance_group: { policy: 'affinity', members: ['x'] } });
    // Act
    await schedule(hosts, spec);
    // Assess
    expect([
      hosts[0].free_ram_mb,
      hosts[0].instances,
      spec.instance_group?.hosts,
      spec.instance_group?.members,
    ]).toEqual([8192, {}, [], ['x']]);
  });

  it('lets IoOpsFilter see the I/O op each earlier pick added', async () => {
    // Prepare: a limit of 1 in-flight operation means one instance per idle host.
    const config = noPlacement({ filter_scheduler: { max_io_ops_per_host: 1 } });
    const hosts = [
      node('a', { free_ram_mb: 9000 }),
      node('b', { free_ram_mb: 5000 }),
      node('c', { free_ram_mb: 1000 }),
    ];
    // Act
    const d = await schedule(hosts, makeSpec({ num_instances: 3 }), {
      filters: [IoOpsFilter],
      weighers: [RAMWeigher],
      config,
    });
    // Assess
    expect(selected(d)).toEqual(['a', 'b', 'c']);
  });

  it('lets NumInstancesFilter see the instance each earlier pick added', async () => {
    // Prepare
    const config = noPlacement({ filter_scheduler: { max_instances_per_host: 2 } });
    const hosts = [node('a', { free_ram_mb: 9000, num_instances: 1 }), node('b', { free_ram_mb: 1000 })];
    // Act
    const d = await schedule(hosts, makeSpec({ num_instances: 3, flavor: { ...flavor, memory_mb: 1 } }), {
      filters: [NumInstancesFilter],
      weighers: [RAMWeigher],
      config,
    });
    // Assess: a takes one (2 then), b takes the other two.
    expect(selected(d)).toEqual(['a', 'b', 'b']);
  });

  it('spreads an anti-affinity multi-create whose new instances are not yet listed as members', async () => {
    // Prepare: Nova's API adds each new instance to the group before scheduling, so the earlier
    // picks' stub instances count as members on their hosts.
    const hosts = [
      node('a', { free_ram_mb: 9000 }),
      node('b', { free_ram_mb: 5000 }),
      node('c', { free_ram_mb: 1000 }),
    ];
    const spec = makeSpec({ num_instances: 3, instance_group: { policy: 'anti-affinity', members: [] } });
    // Act
    const d = await schedule(hosts, spec, {
      filters: [ServerGroupAntiAffinityFilter],
      weighers: [RAMWeigher],
    });
    // Assess
    expect(selected(d)).toEqual(['a', 'b', 'c']);
  });

  it('fails an anti-affinity multi-create with more instances than hosts', async () => {
    // Prepare
    const hosts = [node('a'), node('b')];
    const spec = makeSpec({
      instance_uuids: ['u1', 'u2', 'u3'],
      instance_group: { policy: 'anti-affinity', members: ['u1', 'u2', 'u3'] },
    });
    // Act
    const d = await schedule(hosts, spec, { filters: [ServerGroupAntiAffinityFilter] });
    // Assess
    expect([d.error?.message, d.placements]).toEqual([
      'No valid host was found. There are not enough hosts available.',
      [],
    ]);
  });

  it('keeps an affinity multi-create on the first pick as the group hosts grow', async () => {
    // Prepare: after the first instance, b has less free RAM than a, but the group now lives on b.
    const hosts = [node('a', { free_ram_mb: 8000 }), node('b', { free_ram_mb: 8500 })];
    const spec = makeSpec({
      num_instances: 3,
      flavor: { ...flavor, memory_mb: 1000 },
      instance_group: { policy: 'affinity' },
    });
    // Act
    const d = await schedule(hosts, spec, { filters: [ServerGroupAffinityFilter], weighers: [RAMWeigher] });
    // Assess
    expect(selected(d)).toEqual(['b', 'b', 'b']);
  });

  it('lets the soft anti-affinity weigher count the earlier picks of the request', async () => {
    // Prepare: without counting the new instance, a would keep winning on RAM.
    const hosts = [node('a', { free_ram_mb: 9000 }), node('b', { free_ram_mb: 8900 })];
    const spec = makeSpec({
      num_instances: 2,
      flavor: { ...flavor, memory_mb: 1 },
      instance_group: { policy: 'soft-anti-affinity' },
    });
    // Act
    const d = await schedule(hosts, spec, { weighers: [RAMWeigher, ServerGroupSoftAntiAffinityWeigher] });
    // Assess
    expect(selected(d)).toEqual(['a', 'b']);
  });

  it('adds a stub instance to the chosen host only for a request with a server group', async () => {
    // Prepare
    const spec = makeSpec({ instance_uuids: ['u1'] });
    // Act
    const d = await schedule([node('a')], spec);
    // Assess
    expect(d.placements[0].host.instances).toEqual({});
  });

  it('keeps an instance record the chosen host already has', async () => {
    // Prepare: a move re-checks the source host, where the instance already runs.
    const existing = { uuid: 'u1', image_properties: { hw_architecture: 'x86_64' } };
    const spec = makeSpec({
      instance_uuids: ['u1'],
      instance_group: { policy: 'affinity', members: ['u1'] },
    });
    // Act
    const d = await schedule([node('a', { instances: { u1: existing } })], spec);
    // Assess
    expect(d.placements[0].host.instances.u1).toEqual(existing);
  });

  it('adds a stub for the new instance with a server group', async () => {
    // Prepare
    const spec = makeSpec({ instance_uuids: ['u1', 'u2'], instance_group: { policy: 'soft-affinity' } });
    // Act
    const d = await schedule([node('a')], spec);
    // Assess
    expect(Object.keys(d.placements[1].host.instances)).toEqual(['u1', 'u2']);
  });
});
