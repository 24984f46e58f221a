/**
 * Placid's OpenStack drivers against the real Keystone, Nova and Placement: every request they make
 * is one the real service accepts at the microversion they send, and what they read agrees with
 * what the operator's own client reads.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseCloudCredentials } from '../../lib/drivers/openstack/cloudConfig.js';
import {
  NovaConflictError,
  OpenStackForbiddenError,
  OpenStackNotFoundError,
} from '../../lib/drivers/openstack/errors.js';
import { NovaInventoryClient } from '../../lib/drivers/openstack/inventory.js';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { NovaClient } from '../../lib/drivers/openstack/nova.js';
import { PlacementClient } from '../../lib/drivers/openstack/placement.js';
import { COMPUTE_HOSTS, Operator, setUpOnce, useCloud } from './cloud.js';

const PREFIX = 'drv-';
let operator: Operator;
let session: KeystoneSession;
let serverId: string;

setUpOnce(async () => {
  const cloud = useCloud();
  operator = new Operator(cloud.admin);
  session = new KeystoneSession(parseCloudCredentials(cloud.admin, 'clouds.yaml placid-admin'));
  await operator.deleteServers(PREFIX);
  [serverId] = await operator.boot(`${PREFIX}1`, { flavor: 'placid.medium' });
  expect((await operator.settle(serverId)).status).toBe('ACTIVE');
});
afterAll(async () => {
  await operator?.deleteServers(PREFIX);
});

describe('Keystone', () => {
  it('authenticates with the password of a clouds.yaml entry and finds every service in the catalog', async () => {
    // Prepare / Act
    const endpoints = await Promise.all(
      ['compute', 'placement', 'image', 'network', 'identity'].map((type) => session.endpoint({ type })),
    );

    // Assess
    expect(endpoints).toEqual(
      await Promise.all(
        ['compute', 'placement', 'image', 'network', 'identity'].map((t) => operator.endpoint(t)),
      ),
    );
  });

  it('authenticates again when its token is revoked, and the call goes through', async () => {
    // Prepare
    const nova = new NovaClient(session);
    const first = await session.token();
    const revoke = await fetch(`${useCloud().admin.auth.auth_url}/auth/tokens`, {
      method: 'DELETE',
      headers: { 'X-Auth-Token': await operator.token(), 'X-Subject-Token': first },
    });
    expect(revoke.status).toBe(204);

    // Act
    const server = await nova.getServer(serverId);

    // Assess
    expect(server.id).toBe(serverId);
    expect(await session.token()).not.toBe(first);
  });
});

describe('Nova inventory', () => {
  it.each(['2.53', '2.87', '2.88'])('lists the hypervisors at %s as Nova does, UUIDs and all', async (mv) => {
    // Act
    const inventory = new NovaInventoryClient(session, { microversion: mv });
    const hypervisors = await inventory.listHypervisors();

    // Assess
    const { hypervisors: expected } = await operator.nova('GET', '/os-hypervisors/detail', undefined, mv);
    expect(hypervisors.map((h) => h.id).sort()).toEqual(expected.map((h: { id: string }) => h.id).sort());
    expect(hypervisors.map((h) => h.host).sort()).toEqual(COMPUTE_HOSTS);
    const cmp1 = hypervisors.find((h) => h.host === 'cmp-1');
    expect(cmp1).toMatchObject({ nodename: 'cmp-1', state: 'up', status: 'enabled', hypervisorType: 'fake' });
    // 2.88 dropped the resource fields (they live in Placement only).
    if (inventory.hypervisorsReportUsage) expect(cmp1?.usage).toMatchObject({ vcpus: 16, memoryMb: 32768 });
    else expect(cmp1?.usage).toBeNull();
  });

  it('lists every project’s servers with their host and flavor', async () => {
    const servers = await new NovaInventoryClient(session).listServers();
    const mine = servers.find((s) => s.id === serverId);
    expect(mine?.host).toBe(await operator.hostOf(serverId));
    expect(mine?.availabilityZone).toBe('nova');
    expect(mine?.flavor).toMatchObject({ name: 'placid.medium', vcpus: 2, ramMb: 2048, diskGb: 10 });
  });

  it('lists aggregates with their hosts, metadata and availability zone', async () => {
    // Prepare
    const name = `${PREFIX}agg-${Date.now()}`;
    const { aggregate } = await operator.nova('POST', '/os-aggregates', {
      aggregate: { name, availability_zone: 'az-drv' },
    });
    try {
      await operator.nova('POST', `/os-aggregates/${aggregate.id}/action`, { add_host: { host: 'cmp-3' } });
      await operator.nova('POST', `/os-aggregates/${aggregate.id}/action`, {
        set_metadata: { metadata: { ssd: 'true' } },
      });

      // Act
      const aggregates = await new NovaInventoryClient(session).listAggregates();

      // Assess
      expect(aggregates.find((a) => a.name === name)).toMatchObject({
        hosts: ['cmp-3'],
        availabilityZone: 'az-drv',
        metadata: { ssd: 'true', availability_zone: 'az-drv' },
      });
    } finally {
      await operator.nova('POST', `/os-aggregates/${aggregate.id}/action`, {
        remove_host: { host: 'cmp-3' },
      });
      await operator.nova('DELETE', `/os-aggregates/${aggregate.id}`);
    }
  });

  it('lists server groups of every project with their policy and members', async () => {
    const { server_group } = await operator.nova('POST', '/os-server-groups', {
      server_group: { name: `${PREFIX}group`, policy: 'anti-affinity' },
    });
    try {
      const groups = await new NovaInventoryClient(session).listServerGroups();
      expect(groups.find((g) => g.id === server_group.id)).toMatchObject({
        name: `${PREFIX}group`,
        members: [],
      });
    } finally {
      await operator.nova('DELETE', `/os-server-groups/${server_group.id}`);
    }
  });
});

describe('Placement', () => {
  it('reads inventories (totals, reserved, allocation ratios), usages and traits as Placement holds them', async () => {
    // Prepare
    const placement = new PlacementClient(session);
    const hypervisors = await new NovaInventoryClient(session).listHypervisors();
    const byHost = Object.fromEntries(hypervisors.map((h) => [h.host, h.id]));

    // Act
    const inventories = await Promise.all(COMPUTE_HOSTS.map((h) => placement.inventories(byHost[h])));
    const usages = await placement.usages(byHost[await operator.hostOf(serverId)]);
    const traits = await placement.traits(byHost['cmp-1']);

    // Assess: what Placement holds, and what each compute's config put there.
    for (const [i, host] of COMPUTE_HOSTS.entries()) {
      const expected = await operator.placement(`/resource_providers/${byHost[host]}/inventories`);
      expect(inventories[i]).toEqual(expected.inventories);
    }
    expect(inventories[0].VCPU).toMatchObject({ total: 16, reserved: 0, allocation_ratio: 4 });
    expect(inventories[0].MEMORY_MB).toMatchObject({ total: 32768, reserved: 1024, allocation_ratio: 1.5 });
    expect(inventories[1].VCPU).toMatchObject({ total: 16, allocation_ratio: 16 });
    expect(usages).toMatchObject({ VCPU: expect.any(Number), MEMORY_MB: expect.any(Number) });
    expect(usages.VCPU).toBeGreaterThanOrEqual(2);
    expect(traits).toContain('COMPUTE_NODE');
  });
});

describe('Nova actions and their errors', () => {
  it('reads a server, its metadata and its migrations at the microversion it sends', async () => {
    const nova = new NovaClient(session);
    await operator.nova('POST', `/servers/${serverId}/metadata`, { metadata: { role: 'web' } });
    expect(await nova.getServerMetadata(serverId)).toEqual({ role: 'web' });
    expect(await nova.listServerMigrations(serverId)).toEqual([]);
    expect(Array.isArray(await nova.listMigrations({ instanceUuid: serverId }))).toBe(true);
  });

  it('gives Nova’s 409 as a NovaConflictError with Nova’s message when a migration cannot start', async () => {
    // Prepare: a stopped server cannot be live-migrated.
    const [stopped] = await operator.boot(`${PREFIX}stopped`);
    await operator.settle(stopped);
    await operator.nova('POST', `/servers/${stopped}/action`, { 'os-stop': null });
    await operator.settle(stopped);

    // Act
    const error = await new NovaClient(session).liveMigrate(stopped, { host: null }).catch((e) => e);

    // Assess
    expect(error).toBeInstanceOf(NovaConflictError);
    expect(error.message).toContain('vm_state stopped');
  });

  it('gives a non-admin user’s 403 as an OpenStackForbiddenError naming the policy', async () => {
    // Prepare: the member's own server (another project's would be a 404 to it).
    const { member: entry } = useCloud();
    const [own] = await new Operator(entry).boot(`${PREFIX}member`);
    await operator.settle(own);
    const member = new KeystoneSession(parseCloudCredentials(entry, 'clouds.yaml placid-member'));

    // Act
    const error = await new NovaClient(member).liveMigrate(own, { host: null }).catch((e) => e);

    // Assess
    expect(error).toBeInstanceOf(OpenStackForbiddenError);
    expect(error.message).toContain('os-migrate-server:migrate_live');
  });

  it('gives a deleted server’s 404 as an OpenStackNotFoundError', async () => {
    const [doomed] = await operator.boot(`${PREFIX}doomed`);
    await operator.settle(doomed);
    await operator.call('compute', 'DELETE', `/servers/${doomed}`);
    await operator.deleteServers(`${PREFIX}doomed`);
    const error = await new NovaClient(session).getServer(doomed).catch((e) => e);
    expect(error).toBeInstanceOf(OpenStackNotFoundError);
    expect(error.message).toContain('could not be found');
  });
});
