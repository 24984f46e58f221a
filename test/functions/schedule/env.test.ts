import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readScheduleEnv, SCHEDULE_ENV } from '../../../functions/schedule/env.js';
import { scheduleDeps } from '../../../functions/schedule/stage.js';
import { makeLambdaContext } from '../../../lib/local/lambdaContext.js';
import { ConfigError } from '../../../lib/model/errors.js';
import { tableNames } from '../../../lib/store/tables.js';
import { hostReport } from '../../schedule/fixtures.js';
import { useStore } from '../../store/fixtures.js';
import { answerOf, urlContext, urlEvent } from './events.js';

const QUEUES = {
  [SCHEDULE_ENV.replyQueueUrl]: 'https://sqs.us-east-1.amazonaws.com/000000000000/placid-schedule-replies',
  [SCHEDULE_ENV.deadLetterQueueUrl]: 'https://sqs.us-east-1.amazonaws.com/000000000000/placid-schedule-dlq',
};

function configErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readScheduleEnv', () => {
  it('fills the defaults: placid- tables, a full listing every 5 minutes, a read per request', () => {
    // Act
    const env = readScheduleEnv({ ...QUEUES, PLACID_TABLE_HOSTS: 'prod-hosts' }, { queues: true });
    // Assess
    expect(env).toMatchObject({
      tables: { ...tableNames(), hosts: 'prod-hosts' },
      fullRefreshMs: 300_000,
      maxAgeMs: 0,
      replyQueueUrl: QUEUES[SCHEDULE_ENV.replyQueueUrl],
    });
  });

  it('needs no queues for the URL handler', () => {
    // Act
    const env = readScheduleEnv({}, { queues: false });
    // Assess
    expect(env.replyQueueUrl).toBeUndefined();
  });

  it.each([
    [
      'the queue consumer without its queues',
      {},
      [SCHEDULE_ENV.replyQueueUrl, SCHEDULE_ENV.deadLetterQueueUrl],
    ],
    [
      'a refresh period that is not a number',
      { ...QUEUES, [SCHEDULE_ENV.fullRefreshSeconds]: 'soon' },
      ['whole number'],
    ],
    ['a refresh period of zero', { ...QUEUES, [SCHEDULE_ENV.fullRefreshSeconds]: '0' }, ['at least 1']],
    [
      'an endpoint that is not a URL',
      { ...QUEUES, [SCHEDULE_ENV.dynamoEndpoint]: 'localhost' },
      ['must be a URL'],
    ],
    [
      'both a config file and inline config',
      {
        ...QUEUES,
        [SCHEDULE_ENV.schedulerConfigFile]: 'nova.conf',
        [SCHEDULE_ENV.schedulerConfigJson]: '{}',
      },
      ['not both'],
    ],
  ])('refuses %s, naming each problem', (_case, env, fragments) => {
    // Act
    const message = configErrorOf(() => readScheduleEnv(env, { queues: true }));
    // Assess
    for (const fragment of fragments) expect(message).toContain(fragment);
  });
});

describe('scheduleDeps', () => {
  it('builds the scheduler from inline JSON config', async () => {
    // Prepare
    const settings = readScheduleEnv(
      { [SCHEDULE_ENV.schedulerConfigJson]: '{"filter_scheduler": {"weight_classes": ["RAMWeigher"]}}' },
      { queues: false },
    );
    // Act
    const deps = await scheduleDeps(settings, process.cwd());
    // Assess
    expect(deps.scheduler.weighers.map((w) => w.name)).toEqual(['RAMWeigher']);
  });

  it('refuses inline config that names an unknown weigher', async () => {
    // Prepare
    const settings = readScheduleEnv(
      { [SCHEDULE_ENV.schedulerConfigJson]: '{"filter_scheduler": {"weight_classes": ["RAMWeigher2"]}}' },
      { queues: false },
    );
    // Act / Assess
    await expect(scheduleDeps(settings, process.cwd())).rejects.toThrow(/unknown weigher RAMWeigher2/);
  });
});

describe('the Lambda entry points', () => {
  const h = useStore();
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('fail the invocation, not the import, when the environment is wrong, and set up again on the next', async () => {
    // Prepare
    vi.stubEnv(SCHEDULE_ENV.replyQueueUrl, '');
    vi.stubEnv(SCHEDULE_ENV.deadLetterQueueUrl, QUEUES[SCHEDULE_ENV.deadLetterQueueUrl]);
    vi.stubEnv(SCHEDULE_ENV.dynamoEndpoint, h.local.endpoint);
    const { handler } = await import('../../../functions/schedule/queueHandler.js');
    const invoke = () =>
      handler({ Records: [] } as SQSEvent, makeLambdaContext({ functionName: 'placid-schedule-queue' }));
    // Act / Assess
    await expect(invoke()).rejects.toThrow(/PLACID_REPLY_QUEUE_URL is required/);
    vi.stubEnv(SCHEDULE_ENV.replyQueueUrl, QUEUES[SCHEDULE_ENV.replyQueueUrl]);
    await expect(invoke()).resolves.toEqual({ batchItemFailures: [] });
  });

  it('serve the Function URL from the environment, against the configured store', async () => {
    // Prepare
    // The handler runs on the real clock, and a host not heard from within service_down_time is down.
    await h.store.putHostReport({ ...hostReport('entry0', 8192), reported_at: new Date().toISOString() });
    vi.stubEnv(SCHEDULE_ENV.dynamoEndpoint, h.local.endpoint);
    const { handler } = await import('../../../functions/schedule/urlHandler.js');
    const body = JSON.stringify({ request_id: 'e-1', flavor: { vcpus: 1, memory_mb: 512 } });
    // Act
    const answer = answerOf(await handler(urlEvent(body), urlContext()));
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.selected).toEqual([{ host: 'entry0', nodename: 'entry0' }]);
  });
});
