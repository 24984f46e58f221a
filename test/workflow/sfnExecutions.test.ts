/**
 * The plan starter's Step Functions port over the real SDK client, against the fake Step Functions
 * on 127.0.0.1: a start whose name was taken is the migration started before, and the running
 * count is read page by page up to the limit.
 */
import { SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalActivities } from '../../lib/local/activities.js';
import { ManualClock } from '../../lib/model/clock.js';
import { sfnExecutions } from '../../lib/workflow/sfnExecutions.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:Migrations';
let fake: FakeStepFunctions;
let client: SFNClient;

beforeAll(async () => {
  fake = await FakeStepFunctions.start({
    activities: new LocalActivities(new ManualClock()),
    stateMachineArns: [ARN],
  });
  client = new SFNClient(fake.clientConfig());
});
afterAll(async () => {
  client.destroy();
  await fake.close();
});

describe('sfnExecutions', () => {
  it('starts an execution once; a later start of the same migration is one started before', async () => {
    const executions = sfnExecutions(client, ARN);
    expect(await executions.start('mig-1', '{"attempt":1}')).toBe('started');
    expect(await executions.start('mig-1', '{"attempt":2}')).toBe('exists');
    expect([...fake.executions.values()].map((e) => [e.name, e.input])).toEqual([['mig-1', '{"attempt":1}']]);
  });

  it('passes other start failures on', async () => {
    const executions = sfnExecutions(client, `${ARN}Gone`);
    await expect(executions.start('mig-2', '{}')).rejects.toMatchObject({ name: 'StateMachineDoesNotExist' });
  });

  it('counts running executions up to the limit, not the finished ones', async () => {
    const executions = sfnExecutions(client, ARN);
    for (const name of ['run-a', 'run-b', 'run-c', 'run-d']) await executions.start(name, '{}');
    fake.finish(`${ARN.replace(':stateMachine:', ':execution:')}:run-a`, 'SUCCEEDED');
    // Running: mig-1 and run-b..run-d.
    expect(await executions.countRunning(10)).toBe(4);
    expect(await executions.countRunning(2)).toBe(2);
  });
});
