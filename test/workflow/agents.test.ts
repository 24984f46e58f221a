/**
 * `placid agent` in the loop: the synthesized state machine schedules its on-premises tasks on
 * in-process activities (the same calls as Step Functions), and agents the test runs poll them over
 * the real drivers and fake clouds of the harness. Agents die, lose the network and compete; every
 * migration must still end cleanly (expectCleanEnd: node schedulable, maintenance off, leases
 * released, outcome recorded, one migration at most).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../lib/agent/agent.js';
import { type TaskChannel, TaskGoneError } from '../../lib/agent/channel.js';
import type { NodeDrainer } from '../../lib/drivers/kubernetes/types.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { workflowDefinition } from '../../lib/local/workflowDefinition.js';
import type { AgentStepDeps } from '../../lib/workflow/ports.js';
import { expectCleanEnd, K8S_NODE, useHarness } from './harness.js';

const fixture = useHarness();
let activityArn = '';
const agents: Agent[] = [];
beforeAll(async () => {
  const asl = await workflowDefinition();
  const resources = Object.values(asl.States).map((s) => String((s as { Resource?: string }).Resource));
  activityArn = resources.find((r) => r.includes(':activity:')) ?? '';
}, 240_000);
afterEach(async () => {
  // Registered after useHarness's hook, so it runs first: the agents stop before their harness closes.
  for (const agent of agents.splice(0)) agent.abandon();
});

interface Started {
  agent: Agent;
  events: AgentEvent[];
  done: Promise<void>;
}

/**
 * Starts an agent polling the activities; quick retries, since the tests' waits are real time.
 * Fencing by its own clock is off unless asked for: the drainer's waits jump the manual clock past
 * the heartbeat window between two (real-time) heartbeats, which no real clock does.
 */
function startAgent(
  name: string,
  channel: TaskChannel,
  deps: AgentStepDeps = fixture.current.deps,
  concurrency = 1,
  fenceByClock = false,
): Started {
  const events: AgentEvent[] = [];
  const agent = new Agent({
    channel,
    activityArn,
    workerName: name,
    deps,
    concurrency,
    heartbeatIntervalMs: 20,
    reportRetryMs: 5,
    pollRetryMs: 5,
    fenceByClock,
    log: (e) => events.push(e),
  });
  agents.push(agent);
  return { agent, events, done: agent.run() };
}

/** A drainer whose drain does `during` with the node cordoned, then returns what `after` gives. */
function drainerThat(during: () => Promise<'hang' | 'finish'>): AgentStepDeps['drainer'] {
  return async () => {
    const real = await fixture.current.deps.drainer();
    const wrapped: NodeDrainer = {
      cordon: (node) => real.cordon(node),
      uncordon: (node) => real.uncordon(node),
      isCordoned: (node) => real.isCordoned(node),
      nodesOfServer: (server) => real.nodesOfServer(server),
      drain: async (node, options) => {
        await real.cordon(node);
        if ((await during()) === 'hang') return new Promise(() => {});
        return real.drain(node, options);
      },
    };
    return wrapped;
  };
}

const until = async (what: () => boolean, label: string): Promise<void> => {
  for (let i = 0; i < 2_000 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!what()) throw new Error(`timed out waiting for ${label}`);
};

/**
 * Starts agent-a, which dies mid-drain: node cordoned, pods not yet evicted, nothing reported. Its
 * task then passes the heartbeat timeout; `killed()` tells whether it has died yet.
 */
function startDoomedAgent(activities: LocalActivities): { doomed: Started; killed: () => boolean } {
  const h = fixture.current;
  let killed = false;
  const doomed: Started = startAgent('agent-a', activities, {
    ...h.deps,
    drainer: drainerThat(async () => {
      killed = true;
      doomed.agent.abandon();
      h.clock.advance(61_000);
      activities.expireOverdue();
      return 'hang';
    }),
  });
  return { doomed, killed: () => killed };
}

describe('an agent killed mid-drain', () => {
  it('loses its task at the heartbeat timeout; another agent finishes the drain and the migration', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const { doomed, killed } = startDoomedAgent(activities);
    const migration = h.migration();
    const run = h.run(migration, { activities });
    await until(killed, 'the kill');
    const survivor = startAgent('agent-b', activities);
    const result = await run;

    expect([result.status, result.output?.drain?.kubernetes?.evicted]).toEqual(['SUCCEEDED', 1]);
    const drains = activities.deliveries.filter((d) => d.step === 'drain').map((d) => d.worker);
    expect(drains).toEqual(['agent-a', 'agent-b']);
    expect(doomed.events.filter((e) => e.event === 'task-succeeded')).toHaveLength(1); // Recheck only
    expect(survivor.events.some((e) => e.event === 'task-started' && e.step === 'undrain')).toBe(true);
    expect(h.k8s.cluster.pods(K8S_NODE).map((p) => p.name)).toEqual(['node-exporter-x1']);
    await expectCleanEnd(h, migration);
  });

  it('rolls back cleanly, nothing left drained, when the drain fails on the agent that took it over', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const { killed } = startDoomedAgent(activities);
    // The pod the restarted agent meets can never be evicted: the drain fails, rollback undrains.
    h.k8s.cluster.addPod({
      name: 'db-0',
      node: K8S_NODE,
      controller: 'StatefulSet',
      blockEvictions: 'forever',
    });
    const migration = h.migration();
    const run = h.run(migration, { activities });
    await until(killed, 'the kill');
    startAgent('agent-a-restarted', activities);
    const result = await run;

    expect([result.status, result.error]).toEqual(['FAILED', 'DrainBlockedError']);
    const steps = activities.deliveries.map((d) => `${d.step}@${d.worker}`);
    expect(steps).toEqual([
      'recheck@agent-a',
      'drain@agent-a',
      'drain@agent-a-restarted',
      'rollback@agent-a-restarted',
    ]);
    await expectCleanEnd(h, migration);
  });
});

/**
 * The channel as an agent behind a network partition sees it: from `cut(until)` on, every call
 * fails until the clock reaches `until`, and the long polls in flight are reset (a task handed to
 * one of them could never arrive).
 */
function partitioned(channel: TaskChannel, clock: { now(): number }) {
  let healAt = Number.NEGATIVE_INFINITY;
  const inFlight = new Set<AbortController>();
  const down = () => clock.now() < healAt;
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    if (down())
      throw Object.assign(new Error('connect ETIMEDOUT states.us-east-1.amazonaws.com'), {
        name: 'TimeoutError',
      });
    return call();
  };
  const wrapped: TaskChannel = {
    getActivityTask: (arn, worker, signal) =>
      guard(async () => {
        const poll = new AbortController();
        signal?.addEventListener('abort', () => poll.abort(), { once: true });
        inFlight.add(poll);
        try {
          return await channel.getActivityTask(arn, worker, poll.signal);
        } finally {
          inFlight.delete(poll);
        }
      }),
    sendTaskSuccess: (token, output) => guard(() => channel.sendTaskSuccess(token, output)),
    sendTaskFailure: (token, error, cause) => guard(() => channel.sendTaskFailure(token, error, cause)),
    sendTaskHeartbeat: (token) => guard(() => channel.sendTaskHeartbeat(token)),
  };
  return {
    channel: wrapped,
    cut(until: number) {
      healAt = until;
      for (const poll of inFlight) poll.abort();
    },
    get healAt() {
      return healAt;
    },
  };
}

describe('an agent partitioned from AWS for ten minutes', () => {
  it('fences itself by its own clock, drops the step, and the step moves to another agent', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const network = partitioned(activities, h.clock);
    const isolated = startAgent(
      'agent-a',
      network.channel,
      {
        ...h.deps,
        drainer: drainerThat(async () => {
          network.cut(h.clock.now() + 10 * 60_000);
          // The heartbeats fail from here on; Step Functions gives the task up after 60 s.
          h.clock.advance(61_000);
          activities.expireOverdue();
          return 'finish';
        }),
      },
      2,
      true,
    );
    const other = startAgent('agent-b', activities);
    const migration = h.migration();
    const result = await h.run(migration, { activities });
    expect(result.status).toBe('SUCCEEDED');
    await expectCleanEnd(h, migration);
    // Its second poller cannot reach AWS either.
    await until(() => isolated.events.some((e) => e.event === 'poll-error'), 'a failed poll');
    await until(() => isolated.events.some((e) => e.event === 'task-dropped'), 'the dropped step');
    const dropped = isolated.events.find((e) => e.event === 'task-dropped');
    expect(dropped).toMatchObject({ step: 'drain', reason: expect.stringContaining('fenced') });
    expect(isolated.events.some((e) => e.event === 'report-retry')).toBe(false);
    expect(other.events.some((e) => e.event === 'task-succeeded' && e.step === 'drain')).toBe(true);
    await expectCleanEnd(h, migration);
  });
});

describe('two agents polling one activity', () => {
  it('runs each task once, on one agent', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const a = startAgent('agent-a', activities, h.deps, 2);
    const b = startAgent('agent-b', activities, h.deps, 2);
    const migration = h.migration();
    const result = await h.run(migration, { activities });

    expect(result.status).toBe('SUCCEEDED');
    const tokens = activities.deliveries.map((d) => d.token);
    expect(new Set(tokens).size).toBe(tokens.length);
    const agentStates = ['Recheck', 'Drain', 'LiveMigrate', 'PollMigration', 'Verify', 'Undrain'];
    expect(tokens.length).toBe(result.steps.filter((s) => agentStates.includes(s)).length);
    const started = [...a.events, ...b.events].filter((e) => e.event === 'task-started');
    expect(started).toHaveLength(tokens.length);
    expect(new Set(activities.deliveries.map((d) => d.worker))).toEqual(new Set(['agent-a', 'agent-b']));
    await expectCleanEnd(h, migration);
  });

  it('stops taking tasks on stop() and finishes the one it is running', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const a = startAgent('agent-a', activities);
    const migration = h.migration();
    let stopped = false;
    const run = h.run(migration, {
      activities,
      beforeStep: (r) => {
        if (r.step === 'drain' && !stopped) {
          stopped = true;
          // Stop while the drain task waits to be taken: the agent must not take it.
          a.agent.stop();
        }
      },
    });
    await a.done;
    expect(
      a.events.filter((e) => e.event === 'task-started').map((e) => (e as { step: string }).step),
    ).toEqual(['recheck']);
    startAgent('agent-b', activities);
    const result = await run;
    expect(result.status).toBe('SUCCEEDED');
    await expectCleanEnd(h, migration);
  });
});

describe('the activities', () => {
  it('refuses a report for a task that timed out, as Step Functions does', async () => {
    const h = await fixture.start();
    const activities = new LocalActivities(h.clock, 50);
    const outcome = activities
      .schedule(
        'arn:aws:states:us-east-1:123456789012:activity:x',
        { step: 'drain' },
        { heartbeatSeconds: 60 },
      )
      .catch((e: Error) => e);
    const task = await activities.getActivityTask('arn:aws:states:us-east-1:123456789012:activity:x', 'w');
    h.clock.advance(60_001);
    expect(activities.expireOverdue()).toBe(1);
    expect(((await outcome) as Error).name).toBe('States.HeartbeatTimeout');
    await expect(activities.sendTaskSuccess(task!.taskToken, '{}')).rejects.toBeInstanceOf(TaskGoneError);
  });
});
