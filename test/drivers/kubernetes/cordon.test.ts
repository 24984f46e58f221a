import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { KubernetesApiError, NodeNotFoundError } from '../../../lib/drivers/kubernetes/errors.js';
import { KubernetesNodeDrainer } from '../../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { caught, type Harness, NODE, sent, startHarness, TOKEN } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.server.close();
});

describe('KubernetesNodeDrainer cordon and uncordon', () => {
  it('cordons a schedulable node', async () => {
    h = await startHarness();
    const outcome = await h.drainer.cordon(NODE);
    expect(outcome).toBe('cordoned');
    expect(h.cluster.node(NODE)?.unschedulable).toBe(true);
  });

  it('sends the cordon as a strategic merge patch with the bearer token', async () => {
    h = await startHarness();
    await h.drainer.cordon(NODE);
    const [patch] = sent(h.server, 'PATCH', `/api/v1/nodes/${NODE}`);
    expect(patch.contentType).toBe('application/strategic-merge-patch+json');
    expect(patch.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('leaves a cordoned node alone and says it already was', async () => {
    h = await startHarness();
    h.cluster.node(NODE)!.unschedulable = true;
    const outcome = await h.drainer.cordon(NODE);
    expect(outcome).toBe('already-cordoned');
    expect(sent(h.server, 'PATCH', '/nodes/')).toHaveLength(0);
  });

  it('uncordons a cordoned node', async () => {
    h = await startHarness();
    h.cluster.node(NODE)!.unschedulable = true;
    const outcome = await h.drainer.uncordon(NODE);
    expect(outcome).toBe('uncordoned');
    expect(h.cluster.node(NODE)?.unschedulable).toBe(false);
  });

  it('leaves a schedulable node alone on uncordon and says it already was', async () => {
    h = await startHarness();
    const outcome = await h.drainer.uncordon(NODE);
    expect(outcome).toBe('already-schedulable');
    expect(sent(h.server, 'PATCH', '/nodes/')).toHaveLength(0);
  });

  it.each([
    [true, true],
    [false, false],
  ])('reports isCordoned=%s when the node has unschedulable=%s', async (unschedulable, expected) => {
    h = await startHarness();
    h.cluster.node(NODE)!.unschedulable = unschedulable;
    expect(await h.drainer.isCordoned(NODE)).toBe(expected);
  });

  it.each(['cordon', 'uncordon', 'isCordoned'] as const)(
    '%s of an unknown node throws NodeNotFoundError',
    async (op) => {
      h = await startHarness();
      const error = await caught(h.drainer[op]('no-such-node'));
      expect(error).toBeInstanceOf(NodeNotFoundError);
      expect(error.name).toBe('NodeNotFoundError');
      expect(error.message).toContain('no-such-node');
    },
  );

  it.each([
    [503, true],
    [500, true],
    [403, false],
    [422, false],
  ])('turns HTTP %i into a KubernetesApiError with retryable=%s', async (status, retryable) => {
    h = await startHarness();
    h.server.injectFault({ method: 'GET', path: '/nodes/', status });
    const error = (await caught(h.drainer.cordon(NODE))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.name).toBe('KubernetesApiError');
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(`get node ${NODE}`);
  });

  it('turns a request that gets no answer into a retryable KubernetesApiError', async () => {
    h = await startHarness();
    const impatient = await KubernetesNodeDrainer.connect({ ...h.server.connection(), timeoutMs: 50 });
    h.server.injectFault({ hang: true });
    const error = (await caught(impatient.cordon(NODE))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('timeout');
  });

  it('turns a refused connection into a retryable KubernetesApiError', async () => {
    h = await startHarness();
    await h.server.close();
    const error = (await caught(h.drainer.isCordoned(NODE))) as KubernetesApiError;
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('KubernetesNodeDrainer after a lost reply', () => {
  it('finds the node already cordoned when a cordon whose reply was lost is retried', async () => {
    h = await startHarness();
    h.server.injectFault({ method: 'PATCH', loseReply: true });
    const lost = (await caught(h.drainer.cordon(NODE))) as KubernetesApiError;
    const retried = await h.drainer.cordon(NODE);
    expect(lost.retryable).toBe(true);
    expect(retried).toBe('already-cordoned');
  });
});

describe('KubernetesNodeDrainer secrets', () => {
  it('does not print its bearer token when logged', async () => {
    h = await startHarness();
    expect(inspect(h.drainer, { depth: 10 })).not.toContain(TOKEN);
    expect(JSON.stringify(h.drainer)).not.toContain(TOKEN);
  });
});
