import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLLECT_ENV, readCollectEnv } from '../../../functions/collect/env.js';
import { CollectRunFailedError, collect, mappedSecrets } from '../../../functions/collect/handler.js';
import { connectSources } from '../../../lib/collect/wiring.js';
import type { SecretsProvider } from '../../../lib/drivers/credentials.js';
import { ConfigError } from '../../../lib/model/errors.js';
import { startCloud } from '../../collect/cloudFixture.js';
import { startFakeApi, success } from '../../drivers/prometheus/fakeApi.js';
import { FAKE_ADMIN, type FakeOpenStack } from '../../fakes/openstack/server.js';

const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest';
const sqs = mockClient(SQSClient);

let cloud: FakeOpenStack | undefined;
let prometheus: Awaited<ReturnType<typeof startFakeApi>> | undefined;
beforeEach(() => sqs.reset());
afterEach(async () => {
  await cloud?.close();
  await prometheus?.close();
});

function envFor(prometheusUrl: string) {
  return {
    [COLLECT_ENV.config]: JSON.stringify({
      prometheus: { url: prometheusUrl },
      openstack: { max_attempts: 1 },
    }),
    [COLLECT_ENV.queueUrl]: QUEUE,
    [COLLECT_ENV.secretIds]: JSON.stringify({ openstack: 'placid/openstack' }),
  };
}

/** Secrets Manager as the function sees it: secrets by their full names. */
function secretStore(cloudEntry: object): SecretsProvider & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async loadSecret(name) {
      asked.push(name);
      return cloudEntry as never;
    },
  };
}

async function sourcesFor(env: ReturnType<typeof readCollectEnv>, c: FakeOpenStack) {
  const store = secretStore({
    auth: {
      auth_url: c.authUrl,
      user_id: FAKE_ADMIN.id,
      password: FAKE_ADMIN.password,
      project_id: FAKE_ADMIN.projectId,
    },
  });
  const sources = await connectSources(env.config, { secrets: mappedSecrets(env.secretIds, store) });
  return { sources, store };
}

describe('collector Lambda', () => {
  it('reads its environment: config, queue and the secret names', () => {
    const env = readCollectEnv(envFor('http://prometheus:9090'));
    expect([env.config.prometheus.url, env.queueUrl, env.secretIds]).toEqual([
      'http://prometheus:9090',
      QUEUE,
      { openstack: 'placid/openstack' },
    ]);
  });

  it.each([
    ['no config', { [COLLECT_ENV.queueUrl]: QUEUE }, COLLECT_ENV.config],
    [
      'secret names that are not JSON',
      { ...envFor('http://p:9090'), [COLLECT_ENV.secretIds]: '{' },
      COLLECT_ENV.secretIds,
    ],
  ])('fails its cold start on %s, naming the variable', (_what, env, variable) => {
    expect(() => readCollectEnv(env)).toThrow(ConfigError);
    expect(() => readCollectEnv(env)).toThrow(variable);
  });

  it('collects into the ingest queue, reading the secret by the name the stack gave it', async () => {
    cloud = await startCloud();
    prometheus = await startFakeApi(() => ({ body: success([]) }));
    const env = readCollectEnv(envFor(prometheus.url));
    const { sources, store } = await sourcesFor(env, cloud);
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: SendMessageBatchRequestEntry[] }) => ({
      Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: 'm', MD5OfMessageBody: '' })),
      Failed: [],
    }));
    const summary = await collect(env, sources);
    expect([summary.hosts, summary.vms, summary.messages.sent]).toEqual([2, 4, 1]);
    expect(store.asked).toEqual(['placid/openstack']);
  });

  it('fails the invocation when nothing could be sent', async () => {
    cloud = await startCloud();
    prometheus = await startFakeApi(() => ({ body: success([]) }));
    cloud.setFault('listHypervisors', { kind: 'status', status: 500 });
    const env = readCollectEnv(envFor(prometheus.url));
    const { sources } = await sourcesFor(env, cloud);
    await expect(collect(env, sources)).rejects.toThrow(CollectRunFailedError);
  });
});
