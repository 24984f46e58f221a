/**
 * Self-fencing, end to end on 127.0.0.1: the agent's real SDK channel to the Step Functions
 * stand-in, and the step's real Nova and Kubernetes clients against their stand-ins. Once the task
 * is no longer the agent's (heartbeat refused, or partitioned past the heartbeat timeout by its own
 * clock), the stand-ins' request logs show no call started after the fence.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../lib/agent/agent.js';
import type { TaskChannel } from '../../lib/agent/channel.js';
import { sfnChannel } from '../../lib/agent/sfnChannel.js';
import { KubernetesNodeDrainer } from '../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { LocalActivities } from '../../lib/local/activities.js';
import type { AgentStepDeps } from '../../lib/workflow/ports.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';
import { eventually } from '../helpers/eventually.js';
import { type Harness, K8S_NODE, SOURCE, START, startHarness } from '../workflow/harness.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.reverse()) await clean();
  cleanups = [];
});

const client = (endpoint: string) =>
  new SFNClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/** A gate the test opens: the step waits at it inside a driver getter, before any driver call. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function world(options: { partitioned?: boolean } = {}) {
  const h: Harness = await startHarness();
  const activities = new LocalActivities(h.clock, 200);
  const sfn = await FakeStepFunctions.start({ activities, activityArns: [ARN] });
  cleanups.push(
    () => h.close(),
    () => sfn.close(),
  );
  let channel: TaskChannel = sfnChannel(client(sfn.endpoint));
  // Partitioned from AWS: heartbeats go to a port nobody listens on (connection refused).
  if (options.partitioned)
    channel = { ...channel, sendTaskHeartbeat: sfnChannel(client('http://127.0.0.1:1')).sendTaskHeartbeat };
  const events: AgentEvent[] = [];
  const marks: Record<string, number> = {};
  const novaGate = gate();
  const deps: AgentStepDeps = {
    settings: h.deps.settings,
    clock: h.clock,
    nova: async () => {
      await novaGate.opened;
      return h.deps.nova();
    },
    drainer: h.deps.drainer,
    maintenance: h.deps.maintenance,
  };
  const agent = new Agent({
    channel,
    activityArn: ARN,
    workerName: 'agent-a',
    deps,
    clock: h.clock,
    heartbeatIntervalMs: 10,
    log: (e) => {
      events.push(e);
      if (e.event === 'task-fenced') {
        marks.nova = h.nova.requests().length;
        marks.k8s = h.k8s.requests.length;
      }
    },
  });
  const run = (step: string, state: object, heartbeatSeconds = 60) => {
    const result = activities
      .schedule(
        ARN,
        { step, state: { execution_started_at: new Date(START).toISOString(), ...state } },
        {
          heartbeatSeconds,
        },
      )
      .catch((e: Error) => e);
    const done = agent.pollOnce();
    return { result, done };
  };
  return { h, activities, agent, events, marks, novaGate, deps, run };
}

const migrateCalls = (h: Harness) =>
  h.nova.requests().filter((r) => r.route === 'liveMigrate' && r.method === 'POST');

describe('an agent that lost its task', () => {
  it('starts os-migrateLive while the task is its own (the control)', async () => {
    const w = await world();
    const { result, done } = w.run('liveMigrate', { migration: w.h.migration() });
    w.novaGate.open();
    await done;
    expect(await result).toMatchObject({ adopted: false });
    expect(migrateCalls(w.h)).toHaveLength(1);
  });

  it('starts no Nova call once Step Functions refused its heartbeat', async () => {
    // Prepare: the step waits for its Nova client while Step Functions times the task out
    const w = await world();
    const { result, done } = w.run('liveMigrate', { migration: w.h.migration() }, 30);
    await eventually(() => w.activities.inFlight === 1, 5_000, 'the task handed out');
    w.h.clock.advance(31_000); // past the task's 30 s, not yet past the agent's own bound
    w.activities.expireOverdue();
    // Act
    await eventually(() => w.events.some((e) => e.event === 'task-fenced'), 5_000, 'the fence');
    w.novaGate.open();
    await done;
    // Assess
    expect(((await result) as Error).name).toBe('States.HeartbeatTimeout');
    expect(w.events.find((e) => e.event === 'task-fenced')).toMatchObject({
      reason: expect.stringContaining('heartbeat refused'),
    });
    expect(w.h.nova.requests().slice(w.marks.nova)).toEqual([]);
    expect(migrateCalls(w.h)).toEqual([]);
    expect(w.h.nova.state.servers.get(w.h.migration().instance_uuid)?.host).toBe(SOURCE);
  });

  it('partitioned from AWS, never starts os-migrateLive after another agent rolled back', async () => {
    // Prepare: agent A's heartbeats cannot reach AWS; its step waits for its Nova client
    const w = await world({ partitioned: true });
    const migration = w.h.migration();
    const { done } = w.run('liveMigrate', { migration });
    await eventually(() => w.activities.inFlight === 1, 5_000, 'the task handed out');
    // Act: past the heartbeat timeout on A's own clock; Step Functions gives the task away and
    // another agent rolls the migration back
    w.h.clock.advance(61_000);
    w.activities.expireOverdue();
    await eventually(() => w.events.some((e) => e.event === 'task-fenced'), 5_000, 'the fence');
    const other = new Agent({
      channel: w.activities,
      activityArn: ARN,
      workerName: 'agent-b',
      deps: w.h.deps,
    });
    const rollback = w.activities.schedule(ARN, {
      step: 'rollback',
      state: { migration, execution_started_at: new Date(START).toISOString() },
    });
    await other.pollOnce();
    await rollback;
    const afterRollback = w.h.nova.requests().length;
    w.novaGate.open();
    await done;
    // Assess: A made no call after its fence, and certainly no os-migrateLive
    expect(w.events.find((e) => e.event === 'task-fenced')).toMatchObject({
      reason: expect.stringContaining('no heartbeat confirmed'),
    });
    expect(w.h.nova.requests().slice(afterRollback)).toEqual([]);
    expect(migrateCalls(w.h)).toEqual([]);
  });

  it('stops a drain between evictions once its heartbeat is refused', async () => {
    // Prepare: a budget that refuses every eviction keeps the drain retrying (1 s apart, real time)
    const w = await world();
    w.h.k8s.cluster.addPod({ name: 'db-0', node: K8S_NODE, blockEvictions: 'forever' });
    const drainer = await KubernetesNodeDrainer.connect(w.h.k8s.connection());
    w.deps.drainer = async () => drainer;
    const { result, done } = w.run(
      'drain',
      {
        migration: w.h.migration({ consul: undefined }),
        recheck: {
          pre: { cordoned: false },
          targets: { kubernetes: { cluster: null, node: K8S_NODE }, consul: null },
        },
      },
      30,
    );
    await eventually(
      () => w.h.k8s.requests.some((r) => r.path.endsWith('/eviction')),
      5_000,
      'a first eviction',
    );
    // Act
    w.h.clock.advance(31_000);
    w.activities.expireOverdue();
    await eventually(() => w.events.some((e) => e.event === 'task-fenced'), 5_000, 'the fence');
    await done;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Assess: no eviction, cordon or uncordon after the fence
    expect(((await result) as Error).name).toBe('States.HeartbeatTimeout');
    expect(w.h.k8s.requests.slice(w.marks.k8s)).toEqual([]);
  });
});
