/**
 * A plan's migration through the real synthesized state machine (aws-local-stepfunctions) with an
 * agent (`placid agent`'s Agent over in-process activities) running the on-premises steps against
 * the real Nova; Kubernetes and Consul stay the project's stand-ins. Real time (the fake driver
 * migrates a server in 5-9 s), with the state machine's waits zeroed and its Nova steps paced.
 * Whatever fails, nothing is left drained.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../lib/agent/agent.js';
import { ConsulMaintenanceSwitch } from '../../lib/drivers/consul/ConsulMaintenanceSwitch.js';
import { KubernetesNodeDrainer } from '../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { parseCloudCredentials } from '../../lib/drivers/openstack/cloudConfig.js';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { NovaClient } from '../../lib/drivers/openstack/nova.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { workflowDefinition } from '../../lib/local/workflowDefinition.js';
import { runWorkflow } from '../../lib/local/workflowRunner.js';
import { systemClock } from '../../lib/model/clock.js';
import type { MigrationInput } from '../../lib/model/migration.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import type { StepDeps } from '../../lib/workflow/ports.js';
import { storeRecorder, storeStealReader } from '../../lib/workflow/records.js';
import { parseWorkflowSettings, type WorkflowSettingsInput } from '../../lib/workflow/settings.js';
import { FakeConsul, type FakeConsulAgent } from '../fakes/consul/server.js';
import { FakeKubernetesServer } from '../fakes/kubernetes/server.js';
import { type CloudEntry, Operator, setUpOnce, sleep, useCloud } from './cloud.js';

const PREFIX = 'mig-';
const K8S_NODE = 'k8s-web-1';
const CONSUL_NODE = 'web-1';
/** Steps that ask Nova how things stand (and Nova takes seconds to move on). */
const PACED = new Set(['pollMigration', 'rollback', 'liveMigrate', 'verify']);

let operator: Operator;
let activityArn = '';
let dynamo: LocalDynamo;
let store: FleetStore;
const opened: { close(): unknown }[] = [];

setUpOnce(async () => {
  operator = Operator.admin();
  await operator.deleteServers(PREFIX);
  const asl = await workflowDefinition();
  const resources = Object.values(asl.States).map((s) => String((s as { Resource?: string }).Resource));
  activityArn = resources.find((r) => r.includes(':activity:')) ?? '';
  dynamo = await startLocalDynamo();
  store = new FleetStore({ doc: dynamo.client, tables: dynamo.tableNames, clock: systemClock });
});
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});
afterAll(async () => {
  await operator?.deleteServers(PREFIX);
  await dynamo?.close();
});

interface World {
  k8s: FakeKubernetesServer;
  consulAgent: FakeConsulAgent;
  run(input: MigrationInput): ReturnType<typeof runWorkflow>;
  migration(
    server: string,
    source: string,
    dest: string,
    overrides?: Partial<MigrationInput>,
  ): MigrationInput;
}

/** The stand-ins, the real Nova as `entry`, the store, and one agent taking the on-premises tasks. */
async function world(
  entry: CloudEntry,
  settings: WorkflowSettingsInput = {},
  beforeLiveMigrate: () => Promise<void> = async () => {},
): Promise<World> {
  const k8s = await FakeKubernetesServer.start();
  k8s.cluster.addNode(K8S_NODE);
  k8s.cluster.addPod({ name: 'web-7d4f-1', node: K8S_NODE });
  const consul = new FakeConsul();
  const consulAgent = await consul.addAgent(CONSUL_NODE);
  const nova = new NovaClient(new KeystoneSession(parseCloudCredentials(entry, 'clouds.yaml')));
  // What happens to the server between the re-check and the live migration, on Nova's side.
  const hooked = new Proxy(nova, {
    get(target, property) {
      if (property === 'liveMigrate')
        return async (...args: Parameters<NovaClient['liveMigrate']>) => {
          await beforeLiveMigrate();
          return target.liveMigrate(...args);
        };
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const drainer = await KubernetesNodeDrainer.connect(k8s.connection());
  const maintenance = await ConsulMaintenanceSwitch.create({ timeoutMs: 5_000 });
  const parsed = parseWorkflowSettings({ poll_interval_seconds: 1, drain_timeout_seconds: 60, ...settings });
  const deps: StepDeps = {
    settings: parsed,
    clock: systemClock,
    leases: store,
    records: storeRecorder(store, parsed.record_retention_days),
    steal: storeStealReader(store),
    placement: { check: async () => ({ passes: true, reason: 'test: fits' }) },
    nova: async () => hooked,
    drainer: async () => drainer,
    maintenance: async () => maintenance,
  };
  const activities = new LocalActivities(systemClock, 200);
  const agent = new Agent({ channel: activities, activityArn, workerName: 'agent-1', deps, concurrency: 1 });
  const running = agent.run();
  opened.push({
    close: async () => {
      agent.stop();
      await running;
      maintenance.close();
      nova.close();
      await Promise.all([k8s.close(), consul.close()]);
    },
  });
  return {
    k8s,
    consulAgent,
    // Waits and retry intervals are zeroed; Nova's own pace is kept by pausing before each step
    // that asks it how things stand.
    run: (input) =>
      runWorkflow({
        deps,
        input,
        executionName: input.migration_id,
        activities,
        beforeStep: async (request) => {
          if (PACED.has(request.step)) await sleep(500);
        },
      }),
    migration: (server, source, dest, overrides = {}) => ({
      migration_id: `${PREFIX}${server.slice(0, 8)}-${Date.now()}`,
      plan_id: 'plan-openstack',
      plan_expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
      instance_uuid: server,
      source_host: source,
      dest_host: dest,
      estimated_bytes: 2 ** 29,
      estimated_seconds: 10,
      kubernetes_node: K8S_NODE,
      consul: consul.ref(CONSUL_NODE),
      correlation_id: 'corr-openstack',
      ...overrides,
    }),
  };
}

/** A server on `host` (where Nova chooses when undefined), ACTIVE. */
async function serverOn(host: string | undefined, name: string, as = operator): Promise<string> {
  const [id] = await as.boot(`${PREFIX}${name}`, { host });
  expect((await operator.settle(id)).status).toBe('ACTIVE');
  return id;
}

async function record(migration: MigrationInput) {
  const records = await store.migrations.forInstance(migration.instance_uuid);
  return records.find((r) => r.migration_id === migration.migration_id);
}

/** Nothing left drained or in maintenance, whatever happened. */
function expectNothingDrained(w: World) {
  expect(w.k8s.cluster.node(K8S_NODE)?.unschedulable).toBe(false);
  expect(w.consulAgent.inMaintenance).toBe(false);
}

describe('a migration on the real Nova', () => {
  it('moves the server: Nova says so, the record says so, the node is uncordoned', async () => {
    // Prepare
    const w = await world(useCloud().admin);
    const server = await serverOn('cmp-1', 'happy');
    const migration = w.migration(server, 'cmp-1', 'cmp-2');

    // Act
    const result = await w.run(migration);

    // Assess
    expect([result.status, result.error, result.cause]).toEqual(['SUCCEEDED', undefined, undefined]);
    expect(await operator.hostOf(server)).toBe('cmp-2');
    expect(await record(migration)).toMatchObject({ status: 'succeeded', final_host: 'cmp-2' });
    const { migrations } = await operator.nova(
      'GET',
      `/os-migrations?instance_uuid=${server}`,
      undefined,
      '2.80',
    );
    expect(
      migrations.map((m: { status: string; dest_compute: string }) => [m.status, m.dest_compute]),
    ).toEqual([['completed', 'cmp-2']]);
    expectNothingDrained(w);
  });

  it('past its deadline aborts the running live migration (or adopts its outcome), nothing left drained', async () => {
    // Prepare: a deadline of one second, so it passes while Nova migrates.
    const w = await world(useCloud().admin, { min_deadline_seconds: 1, deadline_factor: 1 });
    const server = await serverOn('cmp-1', 'deadline');
    const migration = w.migration(server, 'cmp-1', 'cmp-3', { estimated_seconds: 1 });

    // Act
    const result = await w.run(migration);

    // Assess: where Nova has the server is where the record says it is.
    const host = await operator.hostOf(server);
    const { migrations } = await operator.nova(
      'GET',
      `/os-migrations?instance_uuid=${server}`,
      undefined,
      '2.80',
    );
    const status = migrations[0]?.status;
    expect(['cancelled', 'completed']).toContain(status);
    expect(host).toBe(status === 'cancelled' ? 'cmp-1' : 'cmp-3');
    expect(await record(migration)).toMatchObject({ final_host: host });
    if (status === 'cancelled')
      expect([result.status, result.error]).toEqual(['FAILED', 'MigrationDeadlineError']);
    expectNothingDrained(w);
    expect((await operator.settle(server)).status).toBe('ACTIVE');
  });
});

describe('the cloud’s errors reach the operator typed, with Nova’s message, nothing drained', () => {
  it('a 409 when the migration cannot start: the server was stopped after the re-check', async () => {
    // Prepare
    let server = '';
    let stopped = false;
    const w = await world(useCloud().admin, {}, async () => {
      if (stopped) return;
      stopped = true;
      await operator.nova('POST', `/servers/${server}/action`, { 'os-stop': null });
      await operator.settle(server);
    });
    server = await serverOn('cmp-1', 'stopped');
    const migration = w.migration(server, 'cmp-1', 'cmp-2');

    // Act
    const result = await w.run(migration);

    // Assess
    expect([result.status, result.error]).toEqual(['FAILED', 'ServerBusyError']);
    expect(result.cause).toContain("Cannot 'os-migrateLive' instance");
    expect(result.cause).toContain('vm_state stopped');
    expect(await record(migration)).toMatchObject({ status: 'failed', final_host: 'cmp-1' });
    expect(await operator.hostOf(server)).toBe('cmp-1');
    expectNothingDrained(w);
  });

  it('a non-admin user: Nova hides the host and refuses the live migration (403)', async () => {
    const { member } = useCloud();
    const w = await world(member);
    const server = await serverOn(undefined, 'member', new Operator(member));
    const source = await operator.hostOf(server);
    const migration = w.migration(server, source, source === 'cmp-1' ? 'cmp-2' : 'cmp-1');

    const result = await w.run(migration);

    expect([result.status, result.error]).toEqual(['FAILED', 'NovaPermissionError']);
    expect((await record(migration))?.cause).toContain('OS-EXT-SRV-ATTR:host');
    expect(await operator.hostOf(server)).toBe(source);
    expectNothingDrained(w);
  });

  it('a 404 for a server deleted mid-plan, after the drain', async () => {
    // Prepare
    let server = '';
    const w = await world(useCloud().admin, {}, async () => {
      await operator.call('compute', 'DELETE', `/servers/${server}`);
      await operator.deleteServers(`${PREFIX}doomed`);
    });
    server = await serverOn('cmp-1', 'doomed');
    const migration = w.migration(server, 'cmp-1', 'cmp-2');

    // Act
    const result = await w.run(migration);

    // Assess
    expect(result.status).toBe('FAILED');
    expect(`${result.error}: ${result.cause}`).toMatch(/could not be found/);
    expect((await record(migration))?.status).toBe('failed');
    expectNothingDrained(w);
  });
});
