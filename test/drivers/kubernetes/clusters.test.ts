/**
 * Several Kubernetes clusters behind one deployment: the real drainer, picked by cluster name
 * through lazyDrivers, against two fake API servers that both have a node called worker-1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterConnection } from '../../../lib/drivers/kubernetes/clusters.js';
import { UnknownKubernetesClusterError } from '../../../lib/drivers/kubernetes/errors.js';
import { lazyDrivers } from '../../../lib/workflow/drivers.js';
import { translate } from '../../../lib/workflow/translate.js';
import { FakeKubernetesServer } from '../../fakes/kubernetes/server.js';

let a: FakeKubernetesServer;
let b: FakeKubernetesServer;
beforeAll(async () => {
  [a, b] = await Promise.all([FakeKubernetesServer.start(), FakeKubernetesServer.start()]);
  a.cluster.addNode('worker-1');
  b.cluster.addNode('worker-1');
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const names = { nova: 'openstack', kubernetes: 'kubernetes', consul: 'consul' };
const secretsWith = (kubernetes: object) => ({
  loadSecret: async () => kubernetes as Record<string, unknown>,
});

describe('several Kubernetes clusters', () => {
  it("cordons the node in the report's cluster only, even when another cluster has a node of that name", async () => {
    // Prepare
    const drivers = lazyDrivers(
      secretsWith({ clusters: { 'prod-a': a.connection(), 'prod-b': b.connection() } }),
      names,
    );
    // Act
    await (await drivers.drainer('prod-b')).cordon('worker-1');
    // Assess
    expect(b.cluster.node('worker-1')?.unschedulable).toBe(true);
    expect(a.cluster.node('worker-1')?.unschedulable).toBe(false);
    await (await drivers.drainer('prod-b')).uncordon('worker-1');
  });

  it('uses the default cluster for a report that names none', async () => {
    // Prepare
    const drivers = lazyDrivers(
      secretsWith({ clusters: { 'prod-a': a.connection(), 'prod-b': b.connection() }, default: 'prod-a' }),
      names,
    );
    // Act
    const cordoned = await (await drivers.drainer(null)).isCordoned('worker-1');
    await (await drivers.drainer(undefined)).cordon('worker-1');
    // Assess
    expect(cordoned).toBe(false);
    expect(a.cluster.node('worker-1')?.unschedulable).toBe(true);
    await (await drivers.drainer(null)).uncordon('worker-1');
  });

  it('fails with a permanent, named error for a cluster the configuration does not know', async () => {
    // Prepare
    const drivers = lazyDrivers(
      secretsWith({ clusters: { 'prod-a': a.connection(), 'prod-b': b.connection() } }),
      names,
    );
    // Act
    const error = await drivers.drainer('prod-c').catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(UnknownKubernetesClusterError);
    expect((error as Error).message).toContain(
      'names cluster prod-c; the kubernetes configuration knows prod-a, prod-b',
    );
    const typed = translate('pick the Kubernetes cluster', error) as { name: string; retryable: boolean };
    expect([typed.name, typed.retryable]).toEqual(['UnknownClusterError', false]);
  });

  it('keeps the single-connection form for reports without a cluster, and refuses a named one it is not', () => {
    const single = { server: 'https://k8s.example:6443', token: 't' };
    expect(clusterConnection(single, null)).toEqual(single);
    expect(clusterConnection({ ...single, cluster: 'prod-a' }, 'prod-a')).toEqual(single);
    expect(() => clusterConnection(single, 'prod-a')).toThrow(UnknownKubernetesClusterError);
    expect(() => clusterConnection({ ...single, cluster: 'prod-a' }, 'prod-b')).toThrow(/knows prod-a/);
  });
});
