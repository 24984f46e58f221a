/**
 * The agent's real Step Functions channel (the AWS SDK's SFNClient) against the activity calls
 * served over HTTP on 127.0.0.1: a task goes out, its success and failure come back, and a token
 * that timed out is refused as TaskGoneError.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../lib/agent/agent.js';
import { TaskGoneError } from '../../lib/agent/channel.js';
import { sfnChannel } from '../../lib/agent/sfnChannel.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { ManualClock, systemClock } from '../../lib/model/clock.js';
import { parseWorkflowSettings } from '../../lib/workflow/settings.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';
let fake: FakeStepFunctions | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setUp() {
  const clock = new ManualClock(Date.UTC(2026, 11, 1));
  const activities = new LocalActivities(clock, 200);
  fake = await FakeStepFunctions.start({ activities, activityArns: [ARN] });
  const client = new SFNClient(fake.clientConfig());
  return { clock, activities, channel: sfnChannel(client) };
}

describe('the Step Functions channel', () => {
  it('takes a task, heartbeats and reports success through the SDK', async () => {
    const { activities, channel } = await setUp();
    const result = activities.schedule(ARN, { step: 'verify', state: {} }, { heartbeatSeconds: 60 });
    const task = await channel.getActivityTask(ARN, 'agent-1');
    expect(JSON.parse(task!.input)).toEqual({ step: 'verify', state: {} });
    await channel.sendTaskHeartbeat(task!.taskToken);
    await channel.sendTaskSuccess(task!.taskToken, '{"host":"cmp-2"}');
    expect(await result).toEqual({ host: 'cmp-2' });
    expect(activities.deliveries).toEqual([{ token: task!.taskToken, worker: 'agent-1', step: 'verify' }]);
  });

  it('answers an empty long poll with no task', async () => {
    const { channel } = await setUp();
    expect(await channel.getActivityTask(ARN, 'agent-1')).toBeUndefined();
  });

  it('refuses a report for a timed-out task as TaskGoneError', async () => {
    const { clock, activities, channel } = await setUp();
    const result = activities
      .schedule(ARN, { step: 'drain', state: {} }, { heartbeatSeconds: 60 })
      .catch((e: Error) => e);
    const task = await channel.getActivityTask(ARN, 'agent-1');
    clock.advance(61_000);
    activities.expireOverdue();
    expect(((await result) as Error).name).toBe('States.HeartbeatTimeout');
    const error = await channel.sendTaskSuccess(task!.taskToken, '{}').catch((e: Error) => e);
    expect(error).toBeInstanceOf(TaskGoneError);
  });

  it('carries an agent’s step failure with its error class, which Retry and Catch match on', async () => {
    const { activities, channel } = await setUp();
    const settings = parseWorkflowSettings({});
    const unreachable = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'NovaUnavailableError' });
    };
    const agent = new Agent({
      channel,
      activityArn: ARN,
      workerName: 'agent-1',
      deps: {
        settings,
        clock: systemClock,
        nova: unreachable,
        drainer: unreachable,
        maintenance: unreachable,
      },
    });
    const migration = {
      migration_id: 'mig-1',
      instance_uuid: 'vm-1',
      source_host: 'cmp-1',
      dest_host: 'cmp-2',
    };
    const result = activities
      .schedule(ARN, { step: 'verify', state: { migration } }, { heartbeatSeconds: 60 })
      .catch((e: Error) => e);
    expect(await agent.pollOnce()).toBe(true);
    const error = (await result) as Error;
    expect([error.name, error.message]).toEqual(['NovaUnavailableError', 'connect ECONNREFUSED']);
  });
});
