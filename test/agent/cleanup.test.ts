/**
 * Cleanup with nothing but the agent: the marks a drain leaves (node annotations, the Consul
 * maintenance reason) are found on the Kubernetes and Consul stand-ins, listed by `placid cleanup`,
 * and undone with --apply (or by the agent's own pass) once older than the cap, never under a
 * migration still running here and never someone else's cordon or maintenance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupPass } from '../../lib/agent/cleanupRun.js';
import { loadAgentConfig } from '../../lib/agent/config.js';
import { KubernetesNodeDrainer } from '../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { DRAINED_AT_ANNOTATION, DRAINED_BY_ANNOTATION } from '../../lib/drivers/kubernetes/types.js';
import { runCli, tempFiles } from '../cli/runCli.js';
import { FakeConsul } from '../fakes/consul/server.js';
import { FakeKubernetesServer } from '../fakes/kubernetes/server.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';
const HOURS = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.reverse()) await clean();
  cleanups = [];
});

async function world() {
  const k8s = await FakeKubernetesServer.start();
  const consul = new FakeConsul();
  cleanups.push(
    () => k8s.close(),
    () => consul.close(),
  );
  const marked = (name: string, migration: string, since: string) => {
    const node = k8s.cluster.addNode(name, { unschedulable: true });
    node.annotations = { [DRAINED_BY_ANNOTATION]: migration, [DRAINED_AT_ANNOTATION]: since };
  };
  marked('k8s-old', 'mig-old', ago(3 * HOURS));
  marked('k8s-new', 'mig-new', ago(10 * 60_000));
  marked('k8s-running', 'mig-running', ago(3 * HOURS));
  k8s.cluster.addNode('k8s-ops', { unschedulable: true });
  const old = await consul.addAgent('web-old');
  old.maintenanceReason = `placid migration mig-old since ${ago(3 * HOURS)}: live-migrating vm-1 from a to b`;
  const ops = await consul.addAgent('web-ops');
  ops.maintenanceReason = 'kernel upgrade (ops)';
  const files = tempFiles('placid-cleanup-');
  files.write('endpoints.json', {
    openstack: {},
    kubernetes: { clusters: { 'prod-a': k8s.connection() } },
    consul: { timeoutMs: 2_000, scheme: 'http', insecure: true },
  });
  const config = files.write('agent.json', {
    activity_arn: ARN,
    credentials: { source: 'file', path: 'endpoints.json' },
    cleanup: { consul_agents: [old.address, ops.address] },
  });
  return { k8s, old, ops, config };
}

const cordoned = (w: Awaited<ReturnType<typeof world>>) =>
  w.k8s.cluster
    .nodes()
    .filter((n) => n.unschedulable)
    .map((n) => n.name);

describe('placid cleanup', () => {
  it('lists what Placid left drained and changes nothing without --apply', async () => {
    const w = await world();
    const patchesBefore = w.k8s.requests.filter((r) => r.method === 'PATCH').length;
    const run = await runCli(['cleanup', '--config', w.config]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/node k8s-old \(prod-a\) {2}migration mig-old .* stale/);
    expect(run.stdout).toMatch(/node k8s-new \(prod-a\) {2}migration mig-new .* recent/);
    expect(run.stdout).toMatch(/consul web-old .* migration mig-old .* stale/);
    expect(run.stdout).not.toMatch(/k8s-ops|web-ops/);
    expect(w.k8s.requests.filter((r) => r.method === 'PATCH').length).toBe(patchesBefore);
    expect(w.old.inMaintenance).toBe(true);
  });

  it('--apply undoes the stale ones and leaves the recent and the operators’ alone', async () => {
    const w = await world();
    const run = await runCli(['cleanup', '--config', w.config, '--apply']);
    expect(run.status).toBe(0);
    expect(cordoned(w)).toEqual(['k8s-new', 'k8s-ops']);
    expect(w.k8s.cluster.node('k8s-old')?.annotations).toEqual({});
    expect([w.old.inMaintenance, w.ops.inMaintenance]).toEqual([false, true]);
  });
});

describe("the agent's own pass", () => {
  it('never undoes the mark of a migration it is running', async () => {
    const w = await world();
    const config = await loadAgentConfig(w.config);
    const pass = await cleanupPass(config, {
      apply: true,
      now: Date.now(),
      running: new Set(['mig-running']),
    });
    expect(pass.undone.map((u) => `${u.kind}:${u.node}:${u.outcome}`).sort()).toEqual([
      'consul:web-old:disabled',
      'kubernetes:k8s-old:uncordoned',
    ]);
    expect(cordoned(w)).toEqual(['k8s-new', 'k8s-running', 'k8s-ops']);
  });
});

describe('the marks a drain leaves', () => {
  it('are set with the cordon and removed with the uncordon', async () => {
    const k8s = await FakeKubernetesServer.start();
    cleanups.push(() => k8s.close());
    k8s.cluster.addNode('k8s-1');
    const drainer = await KubernetesNodeDrainer.connect(k8s.connection());
    const at = new Date('2026-12-01T12:00:00Z');
    await drainer.drain('k8s-1', { mark: { migrationId: 'mig-7', at } });
    expect(k8s.cluster.node('k8s-1')?.annotations).toEqual({
      [DRAINED_BY_ANNOTATION]: 'mig-7',
      [DRAINED_AT_ANNOTATION]: at.toISOString(),
    });
    expect(await drainer.uncordon('k8s-1')).toBe('uncordoned');
    expect(k8s.cluster.node('k8s-1')).toMatchObject({ unschedulable: false, annotations: {} });
  });
});
