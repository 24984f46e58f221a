import { afterEach, describe, expect, it } from 'vitest';
import { EndpointNotFoundError, OpenStackUnavailableError } from '../../../lib/drivers/openstack/errors.js';
import { NovaInventoryClient, type NovaInventoryOptions } from '../../../lib/drivers/openstack/inventory.js';
import { KeystoneSession } from '../../../lib/drivers/openstack/keystone.js';
import { PlacementClient } from '../../../lib/drivers/openstack/placement.js';
import { ConfigError } from '../../../lib/model/errors.js';
import { FakeOpenStack, type FakeOpenStackOptions } from '../../fakes/openstack/server.js';
import { caught } from './harness.js';

let fake: FakeOpenStack | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const sleeps: number[] = [];
const retry = { sleep: async (ms: number) => void sleeps.push(ms), random: () => 0.5 };

async function start(options: FakeOpenStackOptions = {}, nova: NovaInventoryOptions = {}) {
  fake = await FakeOpenStack.start(options);
  sleeps.length = 0;
  const session = new KeystoneSession(fake.credentials());
  return {
    fake,
    nova: new NovaInventoryClient(session, { retry, ...nova }),
    placement: new PlacementClient(session, { retry }),
  };
}

function addFleet(f: FakeOpenStack, hosts: number, serversPerHost: number) {
  for (let h = 1; h <= hosts; h++) {
    f.addHypervisor({ host: `cmp-${h}`, id: `00000000-0000-4000-8000-00000000000${h}`, vcpus: 48 });
    for (let s = 1; s <= serversPerHost; s++) {
      f.addServer({
        id: `vm-${h}-${s}`,
        host: `cmp-${h}`,
        flavor: { name: 'm1.large', vcpus: 4, ram: 8192, disk: 40 },
      });
    }
  }
}

function routeCount(f: FakeOpenStack, route: string): number {
  return f.requests().filter((r) => r.route === route).length;
}

describe('NovaInventoryClient listings', () => {
  it('follows next links page by page, taking only the marker from them', async () => {
    // Prepare: pages of 2, and next links that name another host.
    const { fake: f, nova } = await start({ maxPageSize: 2 });
    addFleet(f, 5, 0);
    // Act
    const hypervisors = await nova.listHypervisors();
    // Assess
    expect(hypervisors.map((h) => h.host)).toEqual(['cmp-1', 'cmp-2', 'cmp-3', 'cmp-4', 'cmp-5']);
    expect(routeCount(f, 'listHypervisors')).toBe(3);
  });

  it('reads servers of every project with the embedded flavor, tags, addresses and boot source', async () => {
    const { fake: f, nova } = await start();
    f.addHypervisor({ host: 'cmp-1' });
    f.addServer({
      id: 'vm-1',
      host: 'cmp-1',
      name: 'web-1',
      flavor: { name: 'c4', vcpus: 4, ram: 4096, disk: 0, ephemeral: 10, swap: 512 },
      tags: ['role=web'],
      addresses: ['10.0.0.5', 'fd00::5'],
      bootFromVolume: true,
    });
    const [server] = await nova.listServers();
    expect(server).toMatchObject({
      id: 'vm-1',
      name: 'web-1',
      host: 'cmp-1',
      nodename: 'cmp-1',
      tags: ['role=web'],
      addresses: ['10.0.0.5', 'fd00::5'],
      bootFromVolume: true,
      flavor: { name: 'c4', vcpus: 4, ramMb: 4096, diskGb: 0, ephemeralGb: 10, swapMb: 512 },
    });
    const [request] = f.requests().filter((r) => r.route === 'listServers');
    expect(request.headers['openstack-api-version']).toBe('compute 2.87');
  });

  it('retries a page that fails mid-listing and completes the listing', async () => {
    const { fake: f, nova } = await start({ maxPageSize: 2 });
    addFleet(f, 1, 5);
    f.setFault('listServers', { kind: 'status', status: 503, skip: 1, times: 1 });
    const servers = await nova.listServers();
    expect(servers.map((s) => s.id)).toEqual(['vm-1-1', 'vm-1-2', 'vm-1-3', 'vm-1-4', 'vm-1-5']);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up on a page that keeps failing, naming the call', async () => {
    const { fake: f, nova } = await start({ maxPageSize: 2 });
    addFleet(f, 1, 5);
    f.setFault('listServers', { kind: 'status', status: 500, skip: 1 });
    const error = await caught(nova.listServers());
    expect(error).toBeInstanceOf(OpenStackUnavailableError);
    expect(error.message).toContain('/servers/detail');
    expect(routeCount(f, 'listServers')).toBe(1 + 4);
  });

  it('reads usage from os-hypervisors below 2.88, summed from the servers on the node', async () => {
    const { fake: f, nova } = await start();
    addFleet(f, 1, 3);
    const [h] = await nova.listHypervisors();
    expect(nova.hypervisorsReportUsage).toBe(true);
    expect(h.usage).toMatchObject({ vcpus: 48, vcpusUsed: 12, runningVms: 3, localGbUsed: 120 });
  });

  it('has no usage from 2.88, where Nova removed it', async () => {
    const { fake: f, nova } = await start({}, { microversion: '2.88' });
    addFleet(f, 1, 1);
    const [h] = await nova.listHypervisors();
    expect([nova.hypervisorsReportUsage, h.usage, h.host]).toEqual([false, null, 'cmp-1']);
  });

  it('reads aggregates with their zone and metadata', async () => {
    const { fake: f, nova } = await start();
    f.addAggregate({ name: 'az1-agg', availabilityZone: 'az1', hosts: ['cmp-1'], metadata: { ssd: 'true' } });
    const [aggregate] = await nova.listAggregates();
    expect(aggregate).toMatchObject({
      name: 'az1-agg',
      availabilityZone: 'az1',
      hosts: ['cmp-1'],
      metadata: { ssd: 'true', availability_zone: 'az1' },
    });
  });

  it.each([
    ['2.64', 'policy'],
    ['2.60', 'policies'],
  ])('reads server group policies at %s (%s) and pages by offset', async (microversion) => {
    const { fake: f, nova } = await start({ maxPageSize: 1 }, { microversion });
    f.addServerGroup({ name: 'web', policy: 'anti-affinity', members: ['vm-1'] });
    f.addServerGroup({ name: 'db', policy: 'soft-affinity', members: [] });
    const groups = await nova.listServerGroups();
    expect(groups.map((g) => [g.name, g.policy])).toEqual([
      ['web', 'anti-affinity'],
      ['db', 'soft-affinity'],
    ]);
    expect(routeCount(f, 'listServerGroups')).toBe(3);
  });

  it('reads live migrations', async () => {
    const { fake: f, nova } = await start();
    f.addServer({ id: 'vm-1', host: 'cmp-1' });
    f.moveServer('vm-1', 'cmp-2');
    const [m] = await nova.listLiveMigrationsSince(new Date(0));
    expect([m.instanceUuid, m.status, m.destCompute]).toEqual(['vm-1', 'completed', 'cmp-2']);
  });

  it('refuses a microversion without hypervisor UUIDs', () => {
    expect(() => new NovaInventoryClient({} as never, { microversion: '2.52' })).toThrow(ConfigError);
  });
});

describe('PlacementClient', () => {
  it('reads a compute node provider: inventories with ratios, usages, traits', async () => {
    const { fake: f, placement } = await start({ placement: true });
    f.addHypervisor({
      host: 'cmp-1',
      id: 'rp-1',
      vcpus: 8,
      allocationRatios: { VCPU: 4 },
      traits: ['CUSTOM_GOLD'],
    });
    f.addServer({ id: 'vm-1', host: 'cmp-1', flavor: { vcpus: 2 } });
    await placement.probe();
    const [inventories, usages, traits] = await Promise.all([
      placement.inventories('rp-1'),
      placement.usages('rp-1'),
      placement.traits('rp-1'),
    ]);
    expect(inventories.VCPU).toMatchObject({ total: 8, allocation_ratio: 4 });
    expect(usages.VCPU).toBe(2);
    expect(traits).toEqual(['CUSTOM_GOLD']);
  });

  it('finds no endpoint when the catalog lists no Placement', async () => {
    const { placement } = await start();
    await expect(placement.probe()).rejects.toThrow(EndpointNotFoundError);
  });
});
