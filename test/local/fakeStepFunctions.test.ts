/**
 * The fake Step Functions answers each refusal as the service does, by the name the real SDK
 * client throws and with HTTP 400: callers branch on these names (sfnChannel's TaskGoneError,
 * the starter's ExecutionAlreadyExists), so a fake answering everything alike would hide bugs.
 */
import {
  CreateActivityCommand,
  DescribeExecutionCommand,
  GetActivityTaskCommand,
  ListExecutionsCommand,
  SendTaskFailureCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalActivities } from '../../lib/local/activities.js';
import { ManualClock } from '../../lib/model/clock.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';

const PREFIX = 'arn:aws:states:us-east-1:123456789012';
const ACTIVITY = `${PREFIX}:activity:AgentSteps`;
const MACHINE = `${PREFIX}:stateMachine:Migration`;

let fake: FakeStepFunctions;
let client: SFNClient;
let activities: LocalActivities;

beforeAll(async () => {
  activities = new LocalActivities(new ManualClock(), 50);
  fake = await FakeStepFunctions.start({ activities, activityArns: [ACTIVITY], stateMachineArns: [MACHINE] });
  client = sdkClient();
});

const sdkClient = () => new SFNClient(fake.clientConfig());
afterAll(async () => {
  client.destroy();
  await fake.close();
});

/** The rejection's error name and HTTP status, as the SDK reports them. */
async function refusal(call: Promise<unknown>): Promise<[string, number | undefined]> {
  const error = (await call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e,
  )) as { name: string; $metadata?: { httpStatusCode?: number } };
  return [error.name, error.$metadata?.httpStatusCode];
}

/** A task taken by a worker: its token is one the fake issued. */
async function takenTask(): Promise<string> {
  void activities.schedule(ACTIVITY, { step: 'verify' }).catch(() => undefined);
  const out = await client.send(new GetActivityTaskCommand({ activityArn: ACTIVITY, workerName: 'w' }));
  return out.taskToken as string;
}

describe('the fake Step Functions refuses', () => {
  it('a body that is not JSON with SerializationException', async () => {
    const broken = sdkClient();
    broken.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { body: string; headers: Record<string, string> };
        request.body = '{"activityArn": ';
        delete request.headers['content-length'];
        return next(args);
      },
      { step: 'build', name: 'breakBody' },
    );
    const call = broken.send(new GetActivityTaskCommand({ activityArn: ACTIVITY }));
    expect(await refusal(call)).toEqual(['SerializationException', 400]);
  });

  it('an operation it does not serve with UnknownOperationException', async () => {
    expect(await refusal(client.send(new CreateActivityCommand({ name: 'x' })))).toEqual([
      'UnknownOperationException',
      400,
    ]);
  });

  it('a request missing a required member with ValidationException', async () => {
    const call = client.send(new SendTaskHeartbeatCommand({} as { taskToken: string }));
    expect(await refusal(call)).toEqual(['ValidationException', 400]);
  });

  it('a malformed or wrong-kind ARN with InvalidArn', async () => {
    expect(await refusal(client.send(new GetActivityTaskCommand({ activityArn: 'not-an-arn' })))).toEqual([
      'InvalidArn',
      400,
    ]);
    expect(await refusal(client.send(new StartExecutionCommand({ stateMachineArn: ACTIVITY })))).toEqual([
      'InvalidArn',
      400,
    ]);
    expect(await refusal(client.send(new DescribeExecutionCommand({ executionArn: MACHINE })))).toEqual([
      'InvalidArn',
      400,
    ]);
  });

  it('resources that do not exist by their kind', async () => {
    const activityArn = `${PREFIX}:activity:Other`;
    expect(await refusal(client.send(new GetActivityTaskCommand({ activityArn })))).toEqual([
      'ActivityDoesNotExist',
      400,
    ]);
    const stateMachineArn = `${PREFIX}:stateMachine:Other`;
    expect(await refusal(client.send(new StartExecutionCommand({ stateMachineArn })))).toEqual([
      'StateMachineDoesNotExist',
      400,
    ]);
    expect(await refusal(client.send(new ListExecutionsCommand({ stateMachineArn })))).toEqual([
      'StateMachineDoesNotExist',
      400,
    ]);
    const executionArn = `${PREFIX}:execution:Migration:never-started`;
    expect(await refusal(client.send(new DescribeExecutionCommand({ executionArn })))).toEqual([
      'ExecutionDoesNotExist',
      400,
    ]);
  });

  it('an execution name Step Functions does not allow with InvalidName', async () => {
    for (const name of ['has space', 'a/b', 'x'.repeat(81), 'tab\u0001']) {
      const call = client.send(new StartExecutionCommand({ stateMachineArn: MACHINE, name }));
      expect([name, ...(await refusal(call))]).toEqual([name, 'InvalidName', 400]);
    }
  });

  it('input or output that is not JSON', async () => {
    const start = client.send(
      new StartExecutionCommand({ stateMachineArn: MACHINE, name: 'bad-input', input: '{' }),
    );
    expect(await refusal(start)).toEqual(['InvalidExecutionInput', 400]);
    const taskToken = await takenTask();
    expect(await refusal(client.send(new SendTaskSuccessCommand({ taskToken, output: 'nope' })))).toEqual([
      'InvalidOutput',
      400,
    ]);
    // The refused answer did not use up the task: a good one is still taken.
    await client.send(new SendTaskSuccessCommand({ taskToken, output: '{}' }));
  });

  it('tokens: not of its form (InvalidToken), never issued (TaskDoesNotExist), closed (TaskTimedOut)', async () => {
    const beat = (taskToken: string) => refusal(client.send(new SendTaskHeartbeatCommand({ taskToken })));
    expect(await beat('garbage')).toEqual(['InvalidToken', 400]);
    expect(await beat('local-task-999999')).toEqual(['TaskDoesNotExist', 400]);
    const taskToken = await takenTask();
    await client.send(new SendTaskFailureCommand({ taskToken, error: 'E', cause: 'c' }));
    expect(await beat(taskToken)).toEqual(['TaskTimedOut', 400]);
    expect(await refusal(client.send(new SendTaskSuccessCommand({ taskToken, output: '{}' })))).toEqual([
      'TaskTimedOut',
      400,
    ]);
  });
});

describe('fake executions', () => {
  it('take a name once: the same start again is the same execution, anything else ExecutionAlreadyExists', async () => {
    const start = (input: string) =>
      client.send(new StartExecutionCommand({ stateMachineArn: MACHINE, name: 'mig-1', input }));
    const first = await start('{"a":1}');
    expect(first.executionArn).toBe(`${PREFIX}:execution:Migration:mig-1`);
    expect((await start('{"a":1}')).executionArn).toBe(first.executionArn);
    expect(await refusal(start('{"a":2}'))).toEqual(['ExecutionAlreadyExists', 400]);
    fake.finish(first.executionArn as string, 'SUCCEEDED');
    expect(await refusal(start('{"a":1}'))).toEqual(['ExecutionAlreadyExists', 400]);
    const described = await client.send(new DescribeExecutionCommand({ executionArn: first.executionArn }));
    expect([described.status, described.input]).toEqual(['SUCCEEDED', '{"a":1}']);
  });

  it('list by status, a page at a time', async () => {
    for (const name of ['run-1', 'run-2', 'run-3']) {
      await client.send(new StartExecutionCommand({ stateMachineArn: MACHINE, name }));
    }
    const first = await client.send(
      new ListExecutionsCommand({ stateMachineArn: MACHINE, statusFilter: 'RUNNING', maxResults: 2 }),
    );
    const rest = await client.send(
      new ListExecutionsCommand({
        stateMachineArn: MACHINE,
        statusFilter: 'RUNNING',
        nextToken: first.nextToken,
      }),
    );
    expect([...(first.executions ?? []), ...(rest.executions ?? [])].map((e) => e.name)).toEqual([
      'run-1',
      'run-2',
      'run-3',
    ]);
    expect(rest.nextToken).toBeUndefined();
    const bad = client.send(new ListExecutionsCommand({ stateMachineArn: MACHINE, nextToken: 'forged' }));
    expect(await refusal(bad)).toEqual(['InvalidToken', 400]);
  });
});
