import { afterEach, describe, expect, it } from 'vitest';
import { collectOnce } from '../../lib/collect/run.js';
import { ManualClock } from '../../lib/model/clock.js';
import { parseReportMessage, type ReportMessage } from '../../lib/model/reports.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';
import { NODE_1, startCloud, VM_A, VM_B, VM_R } from './cloudFixture.js';
import { cannedMetrics, collectFrom, configOf, flat, NOW, novaInventory } from './harness.js';

let cloud: FakeOpenStack | undefined;
afterEach(async () => {
  await cloud?.close();
  cloud = undefined;
});

const GUEST_A = { instance: '10.0.0.11:9100' };
const FULL_A = {
  vm_steal: [flat(GUEST_A, 0.2)],
  vm_busy: [flat(GUEST_A, 1)],
  vm_load5: [flat(GUEST_A, 2.5)],
};

const K8S_OWN = 'f0000000-0000-4000-8000-000000000001';
const K8S_HOST = 'f0000000-0000-4000-8000-000000000002';
const K8S_NO_NODE = 'f0000000-0000-4000-8000-000000000003';

/** A VM of a Kubernetes cluster, with the metadata its installer would have set. */
function k8sVm(cloud: FakeOpenStack, id: string, host: string, metadata: Record<string, string>) {
  cloud.addServer({ id, name: `k8s-${id.slice(-1)}`, host, availabilityZone: 'az1', metadata });
}

/** cmp-2 in an aggregate naming Kubernetes cluster `cluster` under the key BY_AGGREGATE reads. */
function clusterAggregate(cloud: FakeOpenStack, cluster: string) {
  cloud.addAggregate({
    name: `k8s-${cluster.slice(-1)}`,
    availabilityZone: null,
    hosts: ['cmp-2'],
    metadata: { placid_k8s_cluster: cluster },
  });
}

/** Server metadata read as the Kubernetes hints, which takes trusting every project. */
const TRUSTED = { inventory: { trust_server_metadata: true } };
const BY_AGGREGATE = {
  inventory: { trust_server_metadata: true, kubernetes_cluster_aggregate_key: 'placid_k8s_cluster' },
};

function parsed(bodies: string[]): ReportMessage[] {
  return bodies.map((b) => parseReportMessage(b, NOW));
}

function all(messages: ReportMessage[]) {
  return {
    hosts: messages.flatMap((m) => m.hypervisors),
    instances: messages.flatMap((m) => m.instances),
  };
}

describe('collectOnce against the fake cloud', () => {
  it('builds messages the ingest stage accepts, with a report per node and per placed server', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf(), { series: FULL_A });
    const { hosts, instances } = all(parsed(run.messages));
    expect(hosts.map((h) => h.host).sort()).toEqual(['cmp-1', 'cmp-2']);
    expect(instances).toHaveLength(4);
    expect(run.summary).toMatchObject({ hosts: 2, vms: 4, complete: true, failed: false });
    expect(run.summary.skipped_servers).toEqual({ without_host: 1, on_unknown_node: 0 });
  });

  it('fills a host report from Nova, its aggregates and Placement', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf());
    const cmp1 = all(parsed(run.messages)).hosts.find((h) => h.host === 'cmp-1');
    expect(cmp1?.availability_zone).toBe('az1');
    expect(cmp1?.state).toMatchObject({
      uuid: NODE_1,
      vcpus_total: 32,
      vcpus_used: 6,
      cpu_allocation_ratio: 4,
      host_ip: '192.0.2.1',
      service: { disabled: false, up: true },
      aggregates: [{ name: 'zone-1', hosts: ['cmp-1'], metadata: { availability_zone: 'az1' } }],
      traits: expect.arrayContaining(['HW_CPU_X86_AVX2']),
      inventories: { VCPU: { total: 32, used: 6, allocation_ratio: 4 } },
    });
    expect(Object.keys(cmp1?.state.instances ?? {}).sort()).toEqual([VM_A, VM_B].sort());
    expect(run.summary.usage_sources).toEqual({ nova: 2 });
  });

  it("puts each host's cell from inventory.cells in its report", async () => {
    // Prepare
    cloud = await startCloud();
    const cells = { 'cell-a-uuid': ['cmp-1'], 'cell-b-uuid': ['cmp-[2-9]'] };
    // Act
    const run = await collectFrom(cloud, configOf({ inventory: { cells } }));
    // Assess
    const { hosts } = all(parsed(run.messages));
    const cellOf = (host: string) => hosts.find((h) => h.host === host)?.state.cell_uuid;
    expect([cellOf('cmp-1'), cellOf('cmp-2')]).toEqual(['cell-a-uuid', 'cell-b-uuid']);
    expect(run.summary.complete).toBe(true);
  });

  it('gives no cell to a host in none or two of the configured cells, and calls the run incomplete', async () => {
    cloud = await startCloud();
    const cells = { 'cell-a-uuid': ['cmp-1'], 'cell-b-uuid': ['cmp-1'] };
    const run = await collectFrom(cloud, configOf({ inventory: { cells } }));
    const { hosts } = all(parsed(run.messages));
    expect(hosts.map((h) => h.state.cell_uuid)).toEqual([null, null]);
    expect(run.summary.complete).toBe(false);
    expect(run.summary.problems).toEqual([
      'host cmp-1 is in cells cell-a-uuid, cell-b-uuid of inventory.cells: its VMs are not moved',
      'host cmp-2 is in no cell of inventory.cells: its VMs are not moved',
    ]);
  });

  it('fills an instance report: flavor, role from metadata or tag, server group', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf());
    const { instances } = all(parsed(run.messages));
    const a = instances.find((i) => i.uuid === VM_A);
    const b = instances.find((i) => i.uuid === VM_B);
    expect(a).toMatchObject({
      name: 'web-1',
      host: 'cmp-1',
      availability_zone: 'az1',
      role: 'web',
      flavor: { name: 'm1.medium', vcpus: 2, memory_mb: 4096, root_gb: 40 },
      server_group: { name: 'web-spread', policy: 'anti-affinity' },
    });
    expect([b?.role, b?.server_group]).toEqual(['db', null]);
  });

  it("names a VM's Kubernetes cluster from its metadata, else from its host's aggregate", async () => {
    // Prepare: VM_A names its own cluster; VM_R's host cmp-2 is in an aggregate of cluster prod-b
    cloud = await startCloud();
    clusterAggregate(cloud, 'prod-b');
    k8sVm(cloud, K8S_OWN, 'cmp-2', { kubernetes_node: 'web-1', kubernetes_cluster: 'prod-a' });
    k8sVm(cloud, K8S_HOST, 'cmp-2', { kubernetes_node: 'worker-7' });
    k8sVm(cloud, K8S_NO_NODE, 'cmp-1', { kubernetes_cluster: 'prod-a' });
    // Act
    const run = await collectFrom(cloud, configOf(BY_AGGREGATE));
    // Assess: the VM that names no node gets no cluster either
    const { instances } = all(parsed(run.messages));
    const pick = (uuid: string) => instances.find((i) => i.uuid === uuid);
    expect([pick(K8S_OWN)?.kubernetes_node, pick(K8S_OWN)?.kubernetes_cluster]).toEqual(['web-1', 'prod-a']);
    expect([pick(K8S_HOST)?.kubernetes_node, pick(K8S_HOST)?.kubernetes_cluster]).toEqual([
      'worker-7',
      'prod-b',
    ]);
    expect(pick(K8S_NO_NODE)?.kubernetes_cluster).toBeUndefined();
    expect(pick(VM_R)?.kubernetes_cluster).toBeUndefined();
    expect(run.summary.complete).toBe(true);
  });

  it('reads no Kubernetes or Consul hint from tenant-writable server metadata by default', async () => {
    // Prepare: a tenant names someone else's node and an address of their choosing
    cloud = await startCloud();
    k8sVm(cloud, K8S_OWN, 'cmp-2', {
      kubernetes_node: 'victim',
      kubernetes_cluster: 'prod-a',
      consul_node: 'victim',
      consul_address: '203.0.113.9',
    });
    // Act
    const run = await collectFrom(cloud, configOf());
    // Assess
    const r = all(parsed(run.messages)).instances.find((i) => i.uuid === K8S_OWN);
    expect([r?.kubernetes_node, r?.kubernetes_cluster, r?.consul]).toEqual([null, undefined, null]);
  });

  it('leaves the cluster out (the default one) when neither key names it, or the aggregate key is off', async () => {
    cloud = await startCloud();
    clusterAggregate(cloud, 'prod-b');
    k8sVm(cloud, K8S_HOST, 'cmp-2', { kubernetes_node: 'worker-7' });
    const run = await collectFrom(cloud, configOf(TRUSTED));
    const r = all(parsed(run.messages)).instances.find((i) => i.uuid === K8S_HOST);
    expect(r?.kubernetes_node).toBe('worker-7');
    expect(r?.kubernetes_cluster).toBeUndefined();
  });

  it('gives no cluster to the VMs of a host whose aggregates name two, and calls the run incomplete', async () => {
    // Prepare
    cloud = await startCloud();
    clusterAggregate(cloud, 'prod-a');
    clusterAggregate(cloud, 'prod-b');
    k8sVm(cloud, K8S_HOST, 'cmp-2', { kubernetes_node: 'worker-7' });
    k8sVm(cloud, K8S_OWN, 'cmp-2', { kubernetes_node: 'web-1', kubernetes_cluster: 'prod-a' });
    // Act
    const run = await collectFrom(cloud, configOf(BY_AGGREGATE));
    // Assess: its own metadata still counts
    const { instances } = all(parsed(run.messages));
    expect(instances.find((i) => i.uuid === K8S_HOST)?.kubernetes_cluster).toBeUndefined();
    expect(instances.find((i) => i.uuid === K8S_OWN)?.kubernetes_cluster).toBe('prod-a');
    expect(run.summary.complete).toBe(false);
    expect(run.summary.problems).toEqual([
      'host cmp-2 is in aggregates naming Kubernetes clusters prod-a, prod-b (placid_k8s_cluster): its VMs report none unless their own metadata names one',
    ]);
  });

  it('samples a mapped VM in percent of its vCPUs, and marks a VM without series as gaps', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf(), { series: FULL_A });
    const { instances } = all(parsed(run.messages));
    const a = instances.find((i) => i.uuid === VM_A);
    const r = instances.find((i) => i.uuid === VM_R);
    expect(a?.samples).toHaveLength(5);
    expect(a?.samples[0]).toMatchObject({ steal_percent: 10, cpu_percent: 50, load5: 2.5 });
    expect([r?.samples, r?.gaps]).toEqual([
      [],
      [
        {
          from: '2026-12-01T11:56:00.000Z',
          to: '2026-12-01T12:00:00.000Z',
          reason: 'no_data',
          metrics: ['steal_percent', 'cpu_percent', 'load5'],
        },
      ],
    ]);
    expect(run.summary.vms_without_series).toHaveLength(3);
  });

  it('reports series that map to nothing without failing the run', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf(), {
      series: { ...FULL_A, vm_load5: [...FULL_A.vm_load5, flat({ instance: 'stray:9100' }, 1)] },
    });
    // node_load5 is both vm_load5 and host_load5: one query, one entry naming both.
    expect(run.summary.mapping.unmapped).toEqual([
      { labels: '{instance="stray:9100"}', queries: ['vm_load5', 'host_load5'] },
    ]);
    expect(run.summary.complete).toBe(true);
  });

  it('sends what is known when a query fails, marks the gaps, and calls the run incomplete', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf(), { series: FULL_A, failing: ['vm_busy'] });
    const a = all(parsed(run.messages)).instances.find((i) => i.uuid === VM_A);
    expect(a?.samples).toEqual([]);
    expect(a?.gaps?.[0]).toMatchObject({ reason: 'source_error', metrics: ['cpu_percent'] });
    expect(run.summary.complete).toBe(false);
    expect(run.summary.problems.join()).toContain('query vm_busy failed');
  });

  it("treats Prometheus's warnings of a partial answer as an incomplete run", async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf(), { series: FULL_A, warnings: ['partial response'] });
    expect(run.summary.complete).toBe(false);
    expect(run.summary.problems.some((p) => p.includes('partial response'))).toBe(true);
  });

  it('runs a query shared by two metrics once', async () => {
    cloud = await startCloud();
    const config = configOf();
    const metrics = cannedMetrics(config, {});
    await collectOnce({
      config,
      metrics,
      inventory: novaInventory(cloud, config),
      clock: new ManualClock(NOW),
    });
    expect(metrics.calls.filter((q) => q === 'node_load5')).toHaveLength(1);
    expect(new Set(metrics.calls).size).toBe(metrics.calls.length);
  });
});

describe('collectOnce when Nova or Placement fail', () => {
  it('retries a listing page that failed once and completes', async () => {
    cloud = await startCloud({ maxPageSize: 2 });
    cloud.setFault('listServers', { kind: 'status', status: 503, skip: 1, times: 1 });
    const run = await collectFrom(cloud, configOf({ openstack: { page_size: 2 } }));
    expect([run.summary.vms, run.summary.complete]).toEqual([4, true]);
  });

  it('sends nothing when a listing keeps failing mid-way, and says which', async () => {
    cloud = await startCloud({ maxPageSize: 2 });
    cloud.setFault('listServers', { kind: 'status', status: 500, skip: 1 });
    const run = await collectFrom(cloud, configOf({ openstack: { page_size: 2 } }));
    expect(run.messages).toEqual([]);
    expect(run.summary.failed).toBe(true);
    expect(run.summary.problems[0]).toMatch(/could not read servers .*\/servers\/detail.* 500/);
  });

  it('reports hosts without traits or ratios when the catalog has no Placement', async () => {
    cloud = await startCloud({ placement: false });
    const run = await collectFrom(cloud, configOf());
    const cmp1 = all(parsed(run.messages)).hosts.find((h) => h.host === 'cmp-1');
    expect([cmp1?.state.traits, cmp1?.state.cpu_allocation_ratio, cmp1?.state.vcpus_total]).toEqual([
      [],
      null,
      32,
    ]);
    expect(run.summary.notes.join()).toContain('Placement not reachable');
    expect(run.summary.complete).toBe(true);
  });

  it('reads usage from Placement at microversion 2.88, where os-hypervisors has none', async () => {
    cloud = await startCloud();
    const run = await collectFrom(cloud, configOf({ openstack: { microversion: '2.88' } }));
    const cmp1 = all(parsed(run.messages)).hosts.find((h) => h.host === 'cmp-1');
    expect(cmp1?.state).toMatchObject({
      vcpus_total: 32,
      vcpus_used: 6,
      free_ram_mb: 131_072 - 512 - 20_480,
    });
    expect(run.summary.usage_sources).toEqual({ placement: 2 });
  });

  it('calls a run incomplete when neither Nova nor Placement can tell the capacity', async () => {
    cloud = await startCloud({ placement: false });
    const run = await collectFrom(cloud, configOf({ openstack: { microversion: '2.88' } }));
    expect(run.summary.usage_sources).toEqual({ flavors: 2 });
    expect(run.summary.complete).toBe(false);
    expect(run.summary.problems.join()).toContain('host capacity is unknown');
  });

  it("sets last_migrated_at from the server's latest completed live migration", async () => {
    cloud = await startCloud({ clock: new ManualClock(NOW.getTime() - 3_600_000) });
    cloud.moveServer(VM_R, 'cmp-2');
    const run = await collectFrom(cloud, configOf());
    const r = all(parsed(run.messages)).instances.find((i) => i.uuid === VM_R);
    expect(r?.last_migrated_at).toBe(new Date(NOW.getTime() - 3_600_000).toISOString());
  });
});
