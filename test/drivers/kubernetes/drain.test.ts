import { afterEach, describe, expect, it } from 'vitest';
import {
  DrainTimeoutError,
  EvictionBlockedError,
  KubernetesApiError,
  UnmanagedPodsError,
} from '../../../lib/drivers/kubernetes/errors.js';
import { ValidationError } from '../../../lib/model/errors.js';
import { caught, type Harness, NODE, sent, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.server.close();
});

const names = (pods: Array<{ name: string }>) => pods.map((p) => p.name).sort();

describe('KubernetesNodeDrainer.drain: which pods go', () => {
  it('cordons the node and evicts its managed pods until they are gone', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE });
    h.cluster.addPod({ name: 'web-b', node: NODE, namespace: 'shop' });
    h.cluster.addPod({ name: 'elsewhere', node: 'k8s-web-2' });
    const result = await h.drainer.drain(NODE);
    expect(h.cluster.node(NODE)?.unschedulable).toBe(true);
    expect(result.evicted).toEqual([
      { namespace: 'default', name: 'web-a' },
      { namespace: 'shop', name: 'web-b' },
    ]);
    expect(h.cluster.pods(NODE)).toHaveLength(0);
    expect(h.cluster.pod('default', 'elsewhere')).toBeDefined();
  });

  it('uses the policy/v1 Eviction API rather than deleting pods', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE });
    await h.drainer.drain(NODE);
    expect(sent(h.server, 'POST', '/pods/web-a/eviction')).toHaveLength(1);
    expect(sent(h.server, 'DELETE', '/pods/')).toHaveLength(0);
  });

  it.each([
    ['DaemonSet pods', { controller: 'DaemonSet' }, 'daemonset'],
    ['mirror pods', { controller: null, mirror: true }, 'mirror'],
  ] as const)('leaves %s in place', async (_label, pod, reason) => {
    h = await startHarness();
    h.cluster.addPod({ name: 'kept', node: NODE, ...pod });
    const result = await h.drainer.drain(NODE);
    expect(result.skipped).toEqual([{ namespace: 'default', name: 'kept', reason }]);
    expect(h.cluster.pod('default', 'kept')?.evictionAttempts).toBe(0);
  });

  it('evicts pods with emptyDir volumes and warns that their data is deleted', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'cache', node: NODE, emptyDir: true });
    const result = await h.drainer.drain(NODE);
    expect(names(result.evicted)).toEqual(['cache']);
    expect(result.warnings).toEqual(['deleting pods with emptyDir data: default/cache']);
  });

  it('refuses pods without a controller unless forced, naming them and evicting nothing', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'managed', node: NODE });
    h.cluster.addPod({ name: 'bare', node: NODE, controller: null });
    const error = (await caught(h.drainer.drain(NODE))) as UnmanagedPodsError;
    expect(error).toBeInstanceOf(UnmanagedPodsError);
    expect(error.name).toBe('UnmanagedPodsError');
    expect(error.pods).toEqual([{ namespace: 'default', name: 'bare' }]);
    expect(error.message).toContain('default/bare');
    expect(h.cluster.pod('default', 'managed')?.evictionAttempts).toBe(0);
  });

  it('removes pods without a controller when forced, with a warning', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'bare', node: NODE, controller: null });
    const result = await h.drainer.drain(NODE, { force: true });
    expect(names(result.evicted)).toEqual(['bare']);
    expect(result.warnings).toEqual(['deleting pods that declare no controller (force): default/bare']);
    expect(h.cluster.pod('default', 'bare')).toBeUndefined();
  });

  it.each(['Succeeded', 'Failed'] as const)(
    'removes a %s pod without a controller even unforced',
    async (phase) => {
      h = await startHarness();
      h.cluster.addPod({ name: 'job-run', node: NODE, controller: null, phase });
      const result = await h.drainer.drain(NODE);
      expect(names(result.evicted)).toEqual(['job-run']);
    },
  );

  it('reads every page of a long pod list', async () => {
    h = await startHarness({ pageSize: 2 });
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) h.cluster.addPod({ name, node: NODE });
    const result = await h.drainer.drain(NODE);
    expect(names(result.evicted)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(sent(h.server, 'GET', '/api/v1/pods?')).toHaveLength(3);
  });
});

describe('KubernetesNodeDrainer.drain: PodDisruptionBudgets and waiting', () => {
  it('retries an eviction a budget refuses, backing off, until it is allowed', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE, blockEvictions: 3 });
    const started = h.clock.now();
    const result = await h.drainer.drain(NODE, { initialRetryDelayMs: 1_000, maxRetryDelayMs: 10_000 });
    expect(names(result.evicted)).toEqual(['web-a']);
    expect(sent(h.server, 'POST', '/pods/web-a/eviction')).toHaveLength(4);
    expect(h.clock.now() - started).toBe(1_000 + 2_000 + 4_000);
  });

  it('caps the backoff at maxRetryDelayMs', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE, blockEvictions: 4 });
    const started = h.clock.now();
    await h.drainer.drain(NODE, { initialRetryDelayMs: 1_000, maxRetryDelayMs: 2_000 });
    expect(h.clock.now() - started).toBe(1_000 + 2_000 + 2_000 + 2_000);
  });

  it('fails with EvictionBlockedError naming the pod and the budget when it never allows eviction', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'db-0', node: NODE, blockEvictions: 'forever', pdbName: 'db-pdb' });
    const started = h.clock.now();
    const error = (await caught(h.drainer.drain(NODE, { timeoutMs: 60_000 }))) as EvictionBlockedError;
    expect(error).toBeInstanceOf(EvictionBlockedError);
    expect(error.name).toBe('EvictionBlockedError');
    expect(error.blocked).toHaveLength(1);
    expect(error.blocked[0].pod).toEqual({ namespace: 'default', name: 'db-0' });
    expect(error.blocked[0].reason).toContain('The disruption budget db-pdb needs 1 healthy pods');
    expect(error.message).toContain('default/db-0');
    expect(h.clock.now() - started).toBe(60_000);
  });

  it('makes its last eviction attempt at the deadline itself', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'db-0', node: NODE, blockEvictions: 'forever' });
    const error = (await caught(
      h.drainer.drain(NODE, { timeoutMs: 10_000, initialRetryDelayMs: 4_000, maxRetryDelayMs: 4_000 }),
    )) as EvictionBlockedError;
    // Attempts at 0, 4, 8 and, cut short, 10 seconds.
    expect(error.blocked[0].attempts).toBe(4);
  });

  it('still evicts the other pods when one is blocked', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'db-0', node: NODE, blockEvictions: 'forever' });
    h.cluster.addPod({ name: 'web-a', node: NODE });
    await caught(h.drainer.drain(NODE, { timeoutMs: 5_000 }));
    expect(h.cluster.pod('default', 'web-a')).toBeUndefined();
    expect(h.cluster.pod('default', 'db-0')).toBeDefined();
  });

  it('treats a 404 from the Eviction API as a pod already gone', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE });
    h.server.injectFault({ method: 'POST', path: '/eviction', status: 404 });
    const result = await h.drainer.drain(NODE);
    expect(result.alreadyGone).toEqual([{ namespace: 'default', name: 'web-a' }]);
    expect(result.evicted).toEqual([]);
  });

  it('waits until evicted pods have terminated', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'slow', node: NODE, terminationDelayMs: 30_000 });
    const result = await h.drainer.drain(NODE, { pollIntervalMs: 5_000 });
    expect(result.durationMs).toBe(30_000);
    expect(h.cluster.pod('default', 'slow')).toBeUndefined();
  });

  it('fails with DrainTimeoutError naming the pods still terminating at the deadline', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'stuck', node: NODE, terminationDelayMs: 3_600_000 });
    const error = (await caught(
      h.drainer.drain(NODE, { timeoutMs: 20_000, pollIntervalMs: 5_000 }),
    )) as DrainTimeoutError;
    expect(error).toBeInstanceOf(DrainTimeoutError);
    expect(error.name).toBe('DrainTimeoutError');
    expect(error.pending).toEqual([{ namespace: 'default', name: 'stuck' }]);
  });

  it('counts a pod recreated under the same name (new UID) as gone', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'kafka-0', node: NODE, controller: 'StatefulSet', recreate: true });
    const result = await h.drainer.drain(NODE, { timeoutMs: 10_000 });
    expect(names(result.evicted)).toEqual(['kafka-0']);
    expect(h.cluster.pod('default', 'kafka-0')?.node).toBeNull();
  });
});

describe('KubernetesNodeDrainer.drain: retries and failures', () => {
  it('can run again after a partial drain and finishes the job', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'db-0', node: NODE, blockEvictions: 3 });
    h.cluster.addPod({ name: 'web-a', node: NODE });
    await caught(h.drainer.drain(NODE, { timeoutMs: 1_500, initialRetryDelayMs: 1_000 }));
    const result = await h.drainer.drain(NODE);
    expect(names(result.evicted)).toEqual(['db-0']);
    expect(h.cluster.pods(NODE)).toHaveLength(0);
  });

  it('succeeds on an already drained node', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE });
    await h.drainer.drain(NODE);
    const again = await h.drainer.drain(NODE);
    expect(again.evicted).toEqual([]);
    expect(h.cluster.node(NODE)?.unschedulable).toBe(true);
  });

  it('passes a 5xx from the API server on as a retryable KubernetesApiError', async () => {
    h = await startHarness();
    h.server.injectFault({ method: 'GET', path: '/api/v1/pods?', status: 503 });
    const error = (await caught(h.drainer.drain(NODE))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(`list pods on node ${NODE}`);
  });

  it('passes an eviction 500 on as a KubernetesApiError naming the pod', async () => {
    h = await startHarness();
    h.cluster.addPod({ name: 'web-a', node: NODE });
    h.server.injectFault({ method: 'POST', path: '/eviction', status: 500 });
    const error = await caught(h.drainer.drain(NODE));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.message).toContain('evict pod default/web-a');
  });

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ initialRetryDelayMs: 5_000, maxRetryDelayMs: 1_000 }, 'maxRetryDelayMs'],
    [{ gracePeriodSeconds: -1 }, 'gracePeriodSeconds'],
    [{ forse: true }, 'forse'],
  ])('rejects bad options %j, naming %s', async (options, field) => {
    h = await startHarness();
    const error = await caught(h.drainer.drain(NODE, options as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(field);
    expect(h.server.requests).toHaveLength(0);
  });
});
