/**
 * What a drain may touch comes from sources a tenant cannot write (lib/workflow/targets.ts): the
 * whole state machine against the fake Nova, Kubernetes API, Consul agents and Consul catalog,
 * with the report's hints (server metadata) aimed elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { trustPolicySchema } from '../../lib/workflow/trust.js';
import {
  expectCleanEnd,
  type Harness,
  K8S_NODE,
  migrationsTo,
  recordOf,
  SOURCE,
  useHarness,
  VM,
  VM_ADDRESS,
} from './harness.js';

const fixture = useHarness();

/** A victim's node and Consul agent, which the tenant's metadata names. */
async function withVictim(h: Harness) {
  h.k8s.cluster.addNode('victim-node', { providerID: 'openstack:///victim-vm' });
  const victimAgent = await h.consul.addAgent('victim');
  return { victimAgent };
}

const writesTo = (h: Harness, node: string) =>
  h.k8s.requests.filter((r) => r.method !== 'GET' && r.path.includes(node));

describe('drain targets the agent finds for itself', () => {
  it('ignores a metadata key pointing at another node: the VM’s own node is drained, the victim untouched', async () => {
    // Prepare
    const h = await fixture.start();
    const { victimAgent } = await withVictim(h);
    const migration = h.migration({
      kubernetes_node: 'victim-node',
      consul: { node: 'victim', address: victimAgent.address },
    });
    // Act
    const run = await h.run(migration);
    // Assess
    expect(run.status).toBe('SUCCEEDED');
    expect(writesTo(h, 'victim-node')).toEqual([]);
    expect(writesTo(h, K8S_NODE).length).toBeGreaterThan(0);
    expect(victimAgent.requests).toEqual([]);
    expect(h.agent.requests.some((r) => r.method === 'PUT')).toBe(true);
    await expectCleanEnd(h, migration);
  });

  it('never contacts an address the catalog does not know', async () => {
    // Prepare: the catalog lists nothing at the VM's address; the report names an agent anyway.
    const h = await fixture.start();
    const { victimAgent } = await withVictim(h);
    h.catalog.nodes.length = 0;
    const migration = h.migration({ consul: { node: 'victim', address: victimAgent.address } });
    // Act
    const run = await h.run(migration);
    // Assess
    expect(run.status).toBe('SUCCEEDED');
    expect(victimAgent.requests).toEqual([]);
    expect(h.agent.requests).toEqual([]);
    expect(h.catalog.requests.map((r) => r.path)).toContain('/v1/catalog/nodes');
  });

  it('finds the node by the VM’s Nova address when no providerID names it', async () => {
    const h = await fixture.start();
    h.k8s.cluster.node(K8S_NODE)!.providerID = undefined;
    h.k8s.cluster.node(K8S_NODE)!.addresses.push(VM_ADDRESS);
    const migration = h.migration({ kubernetes_node: null });
    const run = await h.run(migration);
    expect(run.status).toBe('SUCCEEDED');
    expect(writesTo(h, K8S_NODE).length).toBeGreaterThan(0);
  });

  it('refuses a VM two nodes claim: nothing drained, not moved, and the record says why', async () => {
    // Prepare
    const h = await fixture.start();
    h.k8s.cluster.addNode('impostor', { providerID: `openstack:///${VM}` });
    const migration = h.migration();
    // Act
    const run = await h.run(migration);
    // Assess
    expect([run.status, run.error]).toEqual(['FAILED', 'DrainTargetRefusedError']);
    expect(h.k8s.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(h.agent.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(migrationsTo(h)).toEqual([]);
    const record = await recordOf(h, migration);
    expect(record.status).toBe('failed');
    expect(`${record.error} ${record.cause}`).toContain('several Kubernetes nodes match it');
    expect(`${record.error} ${record.cause}`).toContain('impostor');
    expect(h.nova.getServer(VM)?.host).toBe(SOURCE);
  });

  it('refuses two Consul nodes listed at the VM’s address, contacting neither agent', async () => {
    const h = await fixture.start();
    const { victimAgent } = await withVictim(h);
    h.catalog.register('victim', VM_ADDRESS);
    const run = await h.run(h.migration());
    expect([run.status, run.error]).toEqual(['FAILED', 'DrainTargetRefusedError']);
    expect(h.agent.requests).toEqual([]);
    expect(victimAgent.requests).toEqual([]);
  });

  it('refuses a node outside the allowed name patterns', async () => {
    const h = await fixture.start();
    h.deps.trust = trustPolicySchema.parse({ kubernetes: { node_names: ['k8s-db-.*'] } });
    const migration = h.migration();
    const run = await h.run(migration);
    expect([run.status, run.error]).toEqual(['FAILED', 'DrainTargetRefusedError']);
    expect(h.k8s.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    const record = await recordOf(h, migration);
    expect(`${record.error} ${record.cause}`).toContain('node_names');
  });

  it('searches only the datacenters it is told to', async () => {
    const h = await fixture.start();
    h.deps.trust = trustPolicySchema.parse({ consul: { datacenters: ['dc2'] } });
    const run = await h.run(h.migration());
    expect(run.status).toBe('SUCCEEDED');
    expect(h.catalog.requests.map((r) => r.path)).toEqual(['/v1/catalog/nodes?dc=dc2']);
    expect(h.agent.requests).toEqual([]);
  });

  it('believes the report’s hints only under trust.server_metadata', async () => {
    const h = await fixture.start();
    await withVictim(h);
    h.deps.trust = trustPolicySchema.parse({ server_metadata: true });
    const migration = h.migration({ kubernetes_node: 'victim-node', consul: null });
    const run = await h.run(migration);
    expect(run.status).toBe('SUCCEEDED');
    expect(writesTo(h, 'victim-node').length).toBeGreaterThan(0);
    expect(writesTo(h, K8S_NODE)).toEqual([]);
  });
});
