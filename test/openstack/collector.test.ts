/**
 * The collector over the real cloud: `placid collect` reads Nova and Placement (steal and load come
 * from the project's fake Prometheus) and its reports pass the report schema and agree with what
 * Nova and Placement say: hosts, servers per host, capacities, allocation ratios, reserved
 * amounts, aggregates, availability zones, server groups.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { collectConfigSchema } from '../../lib/collect/config.js';
import { NovaInventory } from '../../lib/collect/novaInventory.js';
import { PrometheusMetrics } from '../../lib/collect/prometheusMetrics.js';
import { collectOnce } from '../../lib/collect/run.js';
import { parseCloudCredentials } from '../../lib/drivers/openstack/cloudConfig.js';
import { NovaInventoryClient } from '../../lib/drivers/openstack/inventory.js';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { PlacementClient } from '../../lib/drivers/openstack/placement.js';
import { PrometheusClient } from '../../lib/drivers/prometheus/client.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import type { FakePrometheus } from '../drivers/prometheus/fakePrometheus.js';
import { COMPUTE_HOSTS, type Json, Operator, setUpOnce, useCloud } from './cloud.js';
import { collect, type HostMetrics, prometheusFor } from './placid.js';

const PREFIX = 'col-';

/** The part of a report message (schema version 1) the assertions read. */
interface SentReport {
  hypervisors: (Record<string, unknown> & {
    host: string;
    instances: string[];
    samples: { steal_percent?: number; load5?: number }[];
    inventories?: Record<string, Record<string, number>>;
    aggregates: unknown[];
  })[];
  instances: (Record<string, unknown> & { uuid: string })[];
}
const METRICS: HostMetrics = {
  'cmp-1': { steal: 25, load: 9, cpu: 60 },
  'cmp-2': { steal: 2, load: 1, cpu: 10 },
  'cmp-3': { steal: 5, load: 3, cpu: 30 },
};
let operator: Operator;
let prometheus: FakePrometheus;
let aggregateId: number;
let groupId: string;
let servers: Record<string, string>;

setUpOnce(async () => {
  operator = Operator.admin();
  await operator.deleteServers(PREFIX);
  const { aggregate } = await operator.nova('POST', '/os-aggregates', {
    aggregate: { name: `${PREFIX}zone`, availability_zone: 'az-col' },
  });
  aggregateId = aggregate.id;
  await operator.nova('POST', `/os-aggregates/${aggregateId}/action`, { add_host: { host: 'cmp-3' } });
  await operator.nova('POST', `/os-aggregates/${aggregateId}/action`, {
    set_metadata: { metadata: { ssd: 'true' } },
  });
  const { server_group } = await operator.nova('POST', '/os-server-groups', {
    server_group: { name: `${PREFIX}spread`, policy: 'anti-affinity' },
  });
  groupId = server_group.id;
  const [web] = await operator.boot(`${PREFIX}web`, { host: 'cmp-1', hints: { group: groupId } });
  const [db] = await operator.boot(`${PREFIX}db`, { flavor: 'placid.medium', az: 'az-col' });
  servers = { web, db };
  await Promise.all([web, db].map((id) => operator.settle(id)));
  await operator.nova('POST', `/servers/${web}/metadata`, { metadata: { role: 'web' } });
  prometheus = await prometheusFor(METRICS);
});

afterAll(async () => {
  await operator?.deleteServers(PREFIX);
  if (aggregateId) {
    await operator.nova('POST', `/os-aggregates/${aggregateId}/action`, { remove_host: { host: 'cmp-3' } });
    await operator.nova('DELETE', `/os-aggregates/${aggregateId}`);
  }
  if (groupId) await operator.call('compute', 'DELETE', `/os-server-groups/${groupId}`);
  await prometheus?.close();
});

/** One collector run over the real cloud at `microversion`, its messages parsed by the report schema. */
async function collectMessages(microversion: string): Promise<SentReport[]> {
  const config = collectConfigSchema.parse({
    prometheus: { url: prometheus.url },
    openstack: { microversion },
  });
  const session = new KeystoneSession(parseCloudCredentials(useCloud().admin, 'clouds.yaml placid-admin'));
  const run = await collectOnce({
    config,
    metrics: new PrometheusMetrics(new PrometheusClient({ url: prometheus.url })),
    inventory: new NovaInventory(
      new NovaInventoryClient(session, { microversion }),
      new PlacementClient(session),
      config,
    ),
  });
  expect(run.summary.problems).toEqual([]);
  // The report schema is the judge; the assertions read the documents as sent.
  for (const m of run.messages) parseReportMessage(m, new Date(), `collected at ${microversion}`);
  return run.messages.map((m) => JSON.parse(m));
}

describe('placid collect over the real cloud', () => {
  it('exits 0 with every host and server, and host samples from Prometheus', async () => {
    const { servers: all } = await operator.nova('GET', '/servers/detail?all_tenants=1');
    const { summary } = await collect(useCloud().admin, prometheus.url);
    expect(summary).toMatchObject({
      hosts: 3,
      vms: all.filter((s: Json) => s['OS-EXT-SRV-ATTR:host']).length,
    });
    expect((summary.samples as { hosts: number }).hosts).toBeGreaterThan(0);
  });

  it.each(['2.87', '2.88'])('reports at %s what Nova and Placement hold', async (microversion) => {
    // Act
    const messages = await collectMessages(microversion);

    // Assess
    const hosts = messages.flatMap((m) => m.hypervisors);
    const instances = messages.flatMap((m) => m.instances);
    expect(hosts.map((h) => h.host).sort()).toEqual(COMPUTE_HOSTS);
    const { hypervisors } = await operator.nova('GET', '/os-hypervisors/detail', undefined, '2.53');
    for (const host of hosts) {
      const node = hypervisors.find((h: { service: { host: string } }) => h.service.host === host.host);
      const inventories = (await operator.placement(`/resource_providers/${node.id}/inventories`))
        .inventories;
      const usages = (await operator.placement(`/resource_providers/${node.id}/usages`)).usages;
      const { servers: onHost } = await operator.nova(
        'GET',
        `/servers/detail?all_tenants=1&host=${host.host}`,
      );
      expect(host).toMatchObject({
        nodename: node.hypervisor_hostname,
        uuid: node.id,
        vcpus_total: inventories.VCPU.total,
        vcpus_used: usages.VCPU,
        total_usable_ram_mb: inventories.MEMORY_MB.total,
        free_ram_mb: inventories.MEMORY_MB.total - usages.MEMORY_MB - inventories.MEMORY_MB.reserved,
        cpu_allocation_ratio: inventories.VCPU.allocation_ratio,
        ram_allocation_ratio: inventories.MEMORY_MB.allocation_ratio,
        disk_allocation_ratio: inventories.DISK_GB.allocation_ratio,
        availability_zone: host.host === 'cmp-3' ? 'az-col' : 'nova',
      });
      expect([...host.instances].sort()).toEqual(onHost.map((s: { id: string }) => s.id).sort());
      expect(host.samples.at(-1)).toMatchObject({
        steal_percent: METRICS[host.host].steal,
        load5: METRICS[host.host].load,
      });
    }
    const cmp1 = hosts.find((h) => h.host === 'cmp-1');
    expect(cmp1?.inventories?.MEMORY_MB).toMatchObject({ reserved: 1024 });
    const cmp3 = hosts.find((h) => h.host === 'cmp-3');
    expect(cmp3?.aggregates).toEqual([
      expect.objectContaining({
        name: `${PREFIX}zone`,
        metadata: { ssd: 'true', availability_zone: 'az-col' },
      }),
    ]);
    const web = instances.find((i) => i.uuid === servers.web);
    expect(web).toMatchObject({ host: 'cmp-1', role: 'web' });
    expect(web?.server_group).toEqual({ name: `${PREFIX}spread`, policy: 'anti-affinity' });
    expect(instances.find((i) => i.uuid === servers.db)).toMatchObject({
      host: 'cmp-3',
      availability_zone: 'az-col',
    });
  });
});
