/** The agent's own rules, over in-process activities: heartbeats while a step runs, and loss. */
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent } from '../../lib/agent/agent.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { ManualClock } from '../../lib/model/clock.js';
import type { AgentStepDeps } from '../../lib/workflow/ports.js';
import { parseWorkflowSettings } from '../../lib/workflow/settings.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';
const migration = { migration_id: 'mig-1', instance_uuid: 'vm-1', source_host: 'cmp-1', dest_host: 'cmp-2' };
const realPause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function setUp(nova: AgentStepDeps['nova']) {
  const clock = new ManualClock(Date.UTC(2026, 11, 1));
  const activities = new LocalActivities(clock, 50);
  const events: AgentEvent[] = [];
  const unused = async () => {
    throw new Error('not used by verify');
  };
  const agent = new Agent({
    channel: activities,
    activityArn: ARN,
    workerName: 'agent-1',
    deps: {
      settings: parseWorkflowSettings({}),
      clock,
      nova,
      drainer: unused,
      maintenance: unused,
    },
    heartbeatIntervalMs: 10,
    log: (e) => events.push(e),
  });
  return { clock, activities, events, agent };
}

const activeServer = { id: 'vm-1', host: 'cmp-2', status: 'ACTIVE', taskState: null };

describe('an agent running a step', () => {
  it('heartbeats while the step runs, so a slow step keeps its task', async () => {
    let s!: ReturnType<typeof setUp>;
    s = setUp(async () => {
      // A slow Nova: 70 s pass on the clock, but heartbeats keep arriving meanwhile.
      for (let i = 0; i < 7; i++) {
        s.clock.advance(10_000);
        await realPause(30);
        s.activities.expireOverdue();
      }
      s.clock.advance(1_000);
      return { getServer: async () => activeServer } as never;
    });
    const result = s.activities.schedule(
      ARN,
      { step: 'verify', state: { migration } },
      { heartbeatSeconds: 60 },
    );
    await s.agent.pollOnce();
    expect(await result).toMatchObject({ host: 'cmp-2', status: 'ACTIVE' });
    expect(s.events.map((e) => e.event)).toEqual(['task-started', 'task-succeeded']);
  });

  it('drops the result when Step Functions refuses a heartbeat (the task went to another agent)', async () => {
    let s!: ReturnType<typeof setUp>;
    s = setUp(async () => {
      s.clock.advance(61_000);
      s.activities.expireOverdue();
      await realPause(50);
      return { getServer: async () => activeServer } as never;
    });
    const result = s.activities
      .schedule(ARN, { step: 'verify', state: { migration } }, { heartbeatSeconds: 60 })
      .catch((e: Error) => e);
    await s.agent.pollOnce();
    expect(((await result) as Error).name).toBe('States.HeartbeatTimeout');
    expect(s.events.at(-1)).toMatchObject({
      event: 'task-dropped',
      reason: expect.stringMatching(/heartbeat (refused|confirmed)/),
    });
  });

  it('reports input it cannot read as UnknownStepError instead of crashing', async () => {
    const s = setUp(async () => ({}) as never);
    const result = s.activities
      .schedule(ARN, { step: 'acquireLeases', state: { migration } })
      .catch((e: Error) => e);
    await s.agent.pollOnce();
    expect(((await result) as Error).name).toBe('UnknownStepError');
  });
});
