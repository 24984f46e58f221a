/**
 * A migration against the fake clouds through the REAL clients: the fake Keystone/Nova, Kubernetes
 * API and Consul agent servers, NovaClient, KubernetesNodeDrainer and ConsulMaintenanceSwitch, a
 * dynalite store, and the synthesized state machine in aws-local-stepfunctions. Everything shares
 * one manual clock; the runner zeroes waits and retry intervals, and each poll moves the clock on
 * by the poll interval the Wait state would have waited.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, expect } from 'vitest';
import { ConsulMaintenanceSwitch } from '../../lib/drivers/consul/ConsulMaintenanceSwitch.js';
import { KubernetesNodeDrainer } from '../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { KeystoneSession } from '../../lib/drivers/openstack/keystone.js';
import { NovaClient } from '../../lib/drivers/openstack/nova.js';
import type { LocalActivities } from '../../lib/local/activities.js';
import { type LocalDynamo, startLocalDynamo } from '../../lib/local/dynalite.js';
import { runWorkflow, type WorkflowRun } from '../../lib/local/workflowRunner.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { MigrationInput } from '../../lib/model/migration.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { candidateLeases } from '../../lib/workflow/leaseNames.js';
import type { PlacementVerdict, StepDeps } from '../../lib/workflow/ports.js';
import { storeRecorder, storeStealReader } from '../../lib/workflow/records.js';
import { parseWorkflowSettings, type WorkflowSettingsInput } from '../../lib/workflow/settings.js';
import { FakeConsul, type FakeConsulAgent, FakeConsulCatalog } from '../fakes/consul/server.js';
import { FakeKubernetesServer } from '../fakes/kubernetes/server.js';
import { FAKE_ADMIN, FAKE_MEMBER, FakeOpenStack } from '../fakes/openstack/server.js';

export const VM = '6f1e0b2a-5c1d-4d8e-9a51-0c7a2f3b9e11';
export const SOURCE = 'cmp-1';
export const DEST = 'cmp-2';
export const K8S_NODE = 'k8s-web-1';
export const CONSUL_NODE = 'web-1';
/** The VM's Nova address, where its Consul agent listens (the fake agents listen on 127.0.0.1). */
export const VM_ADDRESS = '127.0.0.1';
export const START = Date.UTC(2026, 11, 1, 12);

export interface HarnessOptions {
  settings?: WorkflowSettingsInput;
  /** Per-request limit of the Nova client; short for the timeout scenarios. */
  novaTimeoutMs?: number;
  /** Log in to Nova as a project member without the admin role instead of the admin. */
  novaMember?: boolean;
}

export interface Harness {
  clock: ManualClock;
  nova: FakeOpenStack;
  k8s: FakeKubernetesServer;
  consul: FakeConsul;
  agent: FakeConsulAgent;
  catalog: FakeConsulCatalog;
  dynamo: LocalDynamo;
  store: FleetStore;
  deps: StepDeps;
  /** What the placement re-check answers. */
  placement: PlacementVerdict;
  migration(overrides?: Partial<MigrationInput>): MigrationInput;
  run(
    input: unknown,
    hooks?: {
      beforeStep?: Parameters<typeof runWorkflow>[0]['beforeStep'];
      /** Agents the test runs poll these; by default an inline agent takes each task. */
      activities?: LocalActivities;
    },
  ): Promise<WorkflowRun>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new ManualClock(START);
  const nova = await FakeOpenStack.start({
    clock,
    hosts: [SOURCE, DEST, 'cmp-3'],
    migrationSteps: 3,
    users: [FAKE_ADMIN, FAKE_MEMBER],
  });
  // The VM's node and Consul agent are found as an agent finds them: by providerID, and in the
  // Consul catalog at the VM's Nova address (lib/workflow/targets.ts). A member acts on its own
  // project's servers (another project's are a 404 to it, as in Nova).
  nova.addServer({
    id: VM,
    host: SOURCE,
    addresses: [VM_ADDRESS],
    ...(options.novaMember ? { projectId: FAKE_MEMBER.projectId } : {}),
  });
  const k8s = await FakeKubernetesServer.start({ clock });
  k8s.cluster.addNode(K8S_NODE, { providerID: `openstack:///${VM}` });
  k8s.cluster.addPod({ name: 'web-7d4f-1', node: K8S_NODE });
  k8s.cluster.addPod({ name: 'node-exporter-x1', node: K8S_NODE, controller: 'DaemonSet' });
  const consul = new FakeConsul();
  const agent = await consul.addAgent(CONSUL_NODE);
  const catalog = await FakeConsulCatalog.start();
  catalog.register(CONSUL_NODE, VM_ADDRESS);
  const dynamo = await startLocalDynamo();
  const store = new FleetStore({ doc: dynamo.client, tables: dynamo.tableNames, clock });

  const credentials = options.novaMember ? memberCredentials(nova) : nova.credentials();
  const session = new KeystoneSession(credentials, { clock });
  const novaClient = new NovaClient(session, {
    timeoutMs: options.novaTimeoutMs ?? 5_000,
    retry: { sleep: async () => {}, random: () => 0.5 },
  });
  const drainer = await KubernetesNodeDrainer.connect(k8s.connection(), { clock });
  const maintenance = await ConsulMaintenanceSwitch.create({
    timeoutMs: 5_000,
    scheme: 'http',
    insecure: true,
    catalog: catalog.address,
    // Every agent listens on the same port on its VM's address; the fake's is a free one.
    port: Number(agent.address.split(':')[1]),
  });
  const settings = parseWorkflowSettings({ drain_timeout_seconds: 60, ...options.settings });

  const h: Harness = {
    clock,
    nova,
    k8s,
    consul,
    agent,
    catalog,
    dynamo,
    store,
    placement: { passes: true, reason: 'test: fits' },
    deps: {
      settings,
      clock,
      leases: store,
      records: storeRecorder(store, settings.record_retention_days),
      steal: storeStealReader(store),
      placement: { check: async () => h.placement },
      nova: async () => novaClient,
      drainer: async () => drainer,
      maintenance: async () => maintenance,
    },
    migration: (overrides = {}) => ({
      migration_id: 'mig-0001',
      plan_id: 'plan-42',
      plan_expires_at: new Date(START + 30 * 60_000).toISOString(),
      instance_uuid: VM,
      source_host: SOURCE,
      dest_host: DEST,
      estimated_bytes: 4 * 2 ** 30,
      estimated_seconds: 20,
      kubernetes_node: K8S_NODE,
      consul: consul.ref(CONSUL_NODE),
      correlation_id: 'corr-1',
      ...overrides,
    }),
    run: (input, hooks = {}) =>
      runWorkflow({
        deps: h.deps,
        input,
        executionName: (input as { migration_id?: string }).migration_id,
        activities: hooks.activities,
        beforeStep: async (request) => {
          // What the Wait state before each poll stands for.
          if (request.step === 'pollMigration')
            clock.advance((request.state.live?.poll_interval_seconds ?? 0) * 1000);
          await hooks.beforeStep?.(request);
        },
      }),
    close: async () => {
      maintenance.close();
      await Promise.all([nova.close(), k8s.close(), consul.close(), catalog.close(), dynamo.close()]);
    },
  };
  return h;
}

export interface HarnessFixture {
  /** Starts the running test's harness; it is closed after the test. */
  start(options?: HarnessOptions): Promise<Harness>;
  /** The harness the running test started (for a file's helpers). */
  readonly current: Harness;
}

/**
 * Registers the hook a workflow test file needs: whatever harness a test starts is closed after it,
 * passed or failed. Each test starts its own (with its own options), so no state leaks between them.
 */
export function useHarness(): HarnessFixture {
  let open: Harness | undefined;
  afterEach(async () => {
    const closing = open;
    open = undefined;
    await closing?.close();
  });
  return {
    async start(options) {
      await open?.close();
      open = await startHarness(options);
      return open;
    },
    get current() {
      if (!open) throw new Error('no harness: start one in the test first');
      return open;
    },
  };
}

function memberCredentials(nova: FakeOpenStack) {
  const user = { name: FAKE_MEMBER.name, domain: { name: FAKE_MEMBER.domain } };
  const project = { name: FAKE_MEMBER.projectName, domain: { name: FAKE_MEMBER.domain } };
  return {
    authUrl: nova.authUrl,
    auth: { method: 'password' as const, user, password: FAKE_MEMBER.password, project },
  };
}

/** Live migrations of the VM that went to `dest` (Placid's, not someone else's move). */
export function migrationsTo(h: Harness, dest = DEST) {
  return h.nova.migrations().filter((m) => m.serverId === VM && m.destCompute === dest);
}

/**
 * What must hold after every scenario, whatever failed: the node schedulable, maintenance off, the
 * migration's leases released, its outcome recorded, and never a second migration of the VM.
 */
export async function expectCleanEnd(h: Harness, migration: MigrationInput): Promise<void> {
  expect(h.k8s.cluster.node(K8S_NODE)?.unschedulable).toBe(false);
  expect(h.agent.inMaintenance).toBe(false);
  const held = await heldLeases(h, migration);
  expect(held).toEqual([]);
  const records = await h.store.migrations.forInstance(migration.instance_uuid);
  expect(records.map((r) => r.migration_id)).toContain(migration.migration_id);
  expect(migrationsTo(h).length).toBeLessThanOrEqual(1);
}

/** Leases this migration still holds (unexpired, owned by its id). */
export async function heldLeases(h: Harness, migration: MigrationInput): Promise<string[]> {
  const held: string[] = [];
  for (const name of candidateLeases(migration, h.deps.settings)) {
    const { Item } = await h.dynamo.client.send(
      new GetCommand({ TableName: h.dynamo.tableNames.leases, Key: { name }, ConsistentRead: true }),
    );
    if (Item?.owner === migration.migration_id && Number(Item.lease_until) > h.clock.now()) held.push(name);
  }
  return held;
}

/** The migration's record. */
export async function recordOf(h: Harness, migration: MigrationInput) {
  const records = await h.store.migrations.forInstance(migration.instance_uuid);
  const record = records.find((r) => r.migration_id === migration.migration_id);
  if (!record) throw new Error(`no record of ${migration.migration_id}`);
  return record;
}
