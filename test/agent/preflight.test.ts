/**
 * `placid agent --check` reads every file the config names, and `--preflight` tries each
 * connection the agent makes, against the stand-ins on 127.0.0.1: one verdict per line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeActivityCommand, SFNClient } from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../lib/agent/config.js';
import { preflight } from '../../lib/agent/preflight.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { systemClock } from '../../lib/model/clock.js';
import { runCli, tempFiles } from '../cli/runCli.js';
import { FakeConsul } from '../fakes/consul/server.js';
import { FakeKubernetesServer } from '../fakes/kubernetes/server.js';
import { FAKE_ADMIN, FakeOpenStack, fakeAdminAuth } from '../fakes/openstack/server.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/Placid-Ingest';

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.reverse()) await clean();
  cleanups = [];
});

describe('placid agent --check', () => {
  const files = tempFiles('placid-agent-check-');

  it('exits 2 naming a credentials file that is not there', async () => {
    const config = files.write('agent.json', {
      activity_arn: ARN,
      credentials: { source: 'file', path: 'missing-endpoints.json' },
    });
    const run = await runCli(['agent', '--config', config, '--check']);
    expect([run.status, run.stderr]).toEqual([2, expect.stringMatching(/^placid: [^\n]+\n$/)]);
    expect(run.stderr).toMatch(/credentials: .*missing-endpoints\.json/);
  });

  it("exits 2 naming the collector's config when it is not there", async () => {
    files.write('endpoints.json', { openstack: {}, kubernetes: {}, consul: {} });
    const config = files.write('agent2.json', {
      activity_arn: ARN,
      credentials: { source: 'file', path: 'endpoints.json' },
      collect: { config: 'no-collect.yaml', queue_url: QUEUE_URL },
    });
    const run = await runCli(['agent', '--config', config, '--check']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/collect\.config: .*no-collect\.yaml/);
  });
});

describe('placid agent --preflight', () => {
  async function world() {
    const activities = new LocalActivities(systemClock, 200);
    const sfn = await FakeStepFunctions.start({ activities, activityArns: [ARN] });
    const cloud = await FakeOpenStack.start();
    const k8s = await FakeKubernetesServer.start();
    k8s.cluster.addNode('k8s-1');
    const consul = new FakeConsul();
    const agent = await consul.addAgent('web-1');
    cleanups.push(
      () => sfn.close(),
      () => cloud.close(),
      () => k8s.close(),
      () => consul.close(),
    );
    const files = tempFiles('placid-preflight-');
    const endpoints = (password: string) =>
      writeFileSync(
        join(files.dir, 'endpoints.json'),
        JSON.stringify({
          openstack: {
            auth: fakeAdminAuth(cloud.authUrl, password),
          },
          kubernetes: { clusters: { 'prod-a': k8s.connection() }, default: 'prod-a' },
          consul: { timeoutMs: 2_000, scheme: 'http', insecure: true },
        }),
      );
    endpoints(FAKE_ADMIN.password);
    const config = parseAgentConfig(
      JSON.stringify({ activity_arn: ARN, credentials: { source: 'file', path: 'endpoints.json' } }),
      join(files.dir, 'agent.json'),
    );
    const sdk = new SFNClient(sfn.clientConfig());
    const describeActivity = async (activityArn: string) =>
      String((await sdk.send(new DescribeActivityCommand({ activityArn }))).name);
    return { config, agent, endpoints, describeActivity };
  }

  it('gives one passing verdict per connection', async () => {
    const w = await world();
    const verdicts = await preflight(w.config, {
      describeActivity: w.describeActivity,
      consulAgent: w.agent.address,
    });
    expect(verdicts.map((v) => [v.check, v.ok])).toEqual([
      ['activity', true],
      ['keystone', true],
      ['kubernetes prod-a', true],
      ['consul', true],
    ]);
    expect(verdicts.find((v) => v.check === 'consul')?.detail).toContain('web-1');
  });

  it('says which connection fails and why, and the others still pass', async () => {
    const w = await world();
    w.endpoints('not-the-password');
    const verdicts = await preflight(
      { ...w.config, activityArn: ARN.replace('AgentSteps', 'Gone') },
      { describeActivity: w.describeActivity, consulAgent: '127.0.0.1:1' },
    );
    const failed = Object.fromEntries(verdicts.filter((v) => !v.ok).map((v) => [v.check, v.detail]));
    expect(Object.keys(failed)).toEqual(['activity', 'keystone', 'consul']);
    expect(failed.activity).toMatch(/Activity Does Not Exist/);
    expect(failed.keystone).toMatch(/401/);
    expect(failed.keystone).not.toContain('not-the-password');
    expect(verdicts.find((v) => v.check === 'kubernetes prod-a')?.ok).toBe(true);
  });
});
