import { ListExecutionsCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/model/clock.js';
import type { MessageQueue } from '../../lib/queue/port.js';
import { sfnExecutions } from '../../lib/workflow/sfnExecutions.js';
import { type Executions, startPlannedMigrations } from '../../lib/workflow/starter.js';
import { sqsEvent, sqsRecord } from '../queue/sqsRecords.js';
import { migration, START } from './memory.js';

/** Executions kept in a map by name, as Step Functions keeps them. */
class FakeExecutions implements Executions {
  readonly started = new Map<string, string>();
  constructor(public running = 0) {}
  async start(name: string, input: string) {
    if (this.started.has(name)) return 'exists' as const;
    this.started.set(name, input);
    return 'started' as const;
  }
  async countRunning(limit: number) {
    return Math.min(limit, this.running);
  }
}

function deadLetters(): MessageQueue & { bodies: string[] } {
  const bodies: string[] = [];
  return {
    bodies,
    send: async (body) => {
      bodies.push(body);
      return { messageId: `dl-${bodies.length}` };
    },
    sendBatch: async () => ({ sent: [], failed: [] }),
  };
}

const record = (body: unknown, id: string) =>
  sqsRecord(typeof body === 'string' ? body : JSON.stringify(body), { messageId: id });

function deps(executions: Executions, maxConcurrent = 10) {
  return { executions, maxConcurrent, deadLetter: deadLetters(), clock: new ManualClock(START) };
}

describe('startPlannedMigrations', () => {
  it('starts one execution per message, named after the migration id, with the message as input', async () => {
    const executions = new FakeExecutions();
    const m = migration({ migration_id: 'mig-7' });
    const outcome = await startPlannedMigrations(sqsEvent(record(m, 'a')), deps(executions));
    expect(outcome.counts).toEqual({ stored: 1, rejected: 0, retried: 0 });
    expect(JSON.parse(executions.started.get('mig-7') ?? '{}')).toEqual(m);
  });

  it('counts a redelivered message whose execution already exists as done', async () => {
    const executions = new FakeExecutions();
    const m = migration();
    await startPlannedMigrations(sqsEvent(record(m, 'a')), deps(executions));
    const again = await startPlannedMigrations(sqsEvent(record(m, 'a')), deps(executions));
    expect([again.response.batchItemFailures, executions.started.size]).toEqual([[], 1]);
  });

  it('leaves the messages over the concurrency limit on the queue', async () => {
    const executions = new FakeExecutions(1);
    const event = sqsEvent(
      record(migration({ migration_id: 'm1' }), 'a'),
      record(migration({ migration_id: 'm2' }), 'b'),
      record(migration({ migration_id: 'm3' }), 'c'),
    );
    const outcome = await startPlannedMigrations(event, deps(executions, 2));
    expect([...executions.started.keys()]).toEqual(['m1']);
    expect(outcome.response.batchItemFailures).toEqual([{ itemIdentifier: 'b' }, { itemIdentifier: 'c' }]);
  });

  it('starts an expired plan whatever the load, so its deferral gets recorded', async () => {
    const executions = new FakeExecutions(5);
    const expired = migration({ plan_expires_at: new Date(START - 1).toISOString() });
    await startPlannedMigrations(sqsEvent(record(expired, 'a')), deps(executions, 2));
    expect(executions.started.size).toBe(1);
  });

  it('dead-letters a message that is no valid plan message, with the field named', async () => {
    const d = deps(new FakeExecutions());
    const outcome = await startPlannedMigrations(
      sqsEvent(record({ ...migration(), dest_host: 'cmp-1' }, 'a')),
      d,
    );
    expect(outcome.counts.rejected).toBe(1);
    expect(outcome.rejections[0].reason).toContain('dest_host');
  });
});

describe('sfnExecutions', () => {
  const sfn = mockClient(SFNClient);
  const ARN = 'arn:aws:states:us-east-1:123456789012:stateMachine:Migrations';
  beforeEach(() => sfn.reset());

  it('passes other start failures on', async () => {
    sfn
      .on(StartExecutionCommand)
      .rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }));
    await expect(sfnExecutions(new SFNClient({}), ARN).start('mig-1', '{}')).rejects.toThrow('slow down');
  });

  it('counts running executions page by page and stops at the limit', async () => {
    const page = (n: number, nextToken?: string) => ({
      executions: Array.from({ length: n }, () => ({}) as never),
      nextToken,
    });
    sfn.on(ListExecutionsCommand).resolvesOnce(page(3, 't1')).resolvesOnce(page(3, 't2')).resolves(page(3));
    const count = await sfnExecutions(new SFNClient({}), ARN).countRunning(5);
    expect([count, sfn.commandCalls(ListExecutionsCommand).length]).toEqual([6, 2]);
    expect(sfn.commandCalls(ListExecutionsCommand)[0].args[0].input).toMatchObject({
      stateMachineArn: ARN,
      statusFilter: 'RUNNING',
    });
  });
});
