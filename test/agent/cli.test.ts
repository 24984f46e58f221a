import { describe, expect, it } from 'vitest';
import { loadAgentConfig, parseAgentConfig } from '../../lib/agent/config.js';
import { runCli, tempFiles } from '../cli/runCli.js';

const ARN = 'arn:aws:states:eu-west-1:123456789012:activity:PlacidWorkflowAgentSteps';
const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/Placid-Ingest';

describe('placid agent --help', () => {
  it('documents every config key, the AWS credentials and the signals', async () => {
    const run = await runCli(['agent', '--help']);
    for (const key of [
      'activity_arn',
      'region',
      'worker_name',
      'concurrency',
      'heartbeat_interval_seconds',
      'credentials',
      'workflow_settings',
      'collect',
      'AgentPolicyArn',
      'IAM Roles Anywhere',
      'SIGTERM',
    ]) {
      expect(run.stdout, key).toContain(key);
    }
  });
});

describe('placid agent --check', () => {
  it('accepts a config with the collector and reports what it would run', async () => {
    const files = tempFiles('placid-agent-');
    files.write(
      'collect.yaml',
      'prometheus:\n  url: http://127.0.0.1:9090\ncredentials:\n  file: secrets.json\n',
    );
    const path = files.write(
      'agent.yaml',
      `activity_arn: ${ARN}\nworker_name: mgmt-1\ncollect:\n  config: collect.yaml\n  queue_url: ${QUEUE}\n`,
    );
    const run = await runCli(['agent', '--config', path, '--check']);
    expect([run.status, JSON.parse(run.stdout)]).toEqual([
      0,
      { ok: true, activity_arn: ARN, worker: 'mgmt-1', collect: true },
    ]);
  });

  it('names the field that is wrong', async () => {
    const files = tempFiles('placid-agent-');
    const path = files.write('agent.json', { activity_arn: 'arn:aws:lambda:eu-west-1:1:function:x' });
    const run = await runCli(['agent', '--config', path, '--check']);
    expect([run.status, run.stderr]).toEqual([2, expect.stringContaining('activity_arn')]);
  });
});

describe('the agent config', () => {
  it('takes the region from the activity, anchors paths at the file, and checks the workflow settings', () => {
    const config = parseAgentConfig(
      JSON.stringify({
        activity_arn: ARN,
        credentials: { source: 'file', path: 'endpoints.json' },
        workflow_settings: { drain_timeout_seconds: 120 },
        collect: { config: 'collect.yaml', interval: '2m', queue_url: QUEUE },
      }),
      '/etc/placid/agent.json',
    );
    expect(config).toMatchObject({
      region: 'eu-west-1',
      concurrency: 4,
      heartbeatIntervalMs: 20_000,
      credentials: { source: 'file', path: '/etc/placid/endpoints.json' },
      collect: { config: '/etc/placid/collect.yaml', intervalMs: 120_000 },
    });
    expect(config.settings.drain_timeout_seconds).toBe(120);
  });

  it('trusts no server metadata and searches the default cluster unless told otherwise', () => {
    const config = parseAgentConfig(JSON.stringify({ activity_arn: ARN }), 'agent.json');
    expect(config.trust).toEqual({
      kubernetes: { clusters: [], node_names: [] },
      consul: { datacenters: [] },
      server_metadata: false,
    });
  });

  it('refuses a node name pattern that is no regular expression, naming it', () => {
    expect(() =>
      parseAgentConfig(
        JSON.stringify({ activity_arn: ARN, trust: { kubernetes: { node_names: ['k8s-('] } } }),
        'agent.json',
      ),
    ).toThrow(/trust\.kubernetes\.node_names/);
  });

  it('refuses a heartbeat interval the state machine would not tolerate', () => {
    expect(() =>
      parseAgentConfig(JSON.stringify({ activity_arn: ARN, heartbeat_interval_seconds: 60 }), 'agent.json'),
    ).toThrow(/heartbeat_interval_seconds/);
  });

  it('refuses workflow settings the steps would refuse', () => {
    expect(() =>
      parseAgentConfig(
        JSON.stringify({ activity_arn: ARN, workflow_settings: { timezone: 'Mars/Olympus' } }),
        'agent.json',
      ),
    ).toThrow(/timezone/);
  });
});

describe('the shipped example', () => {
  it('is a valid agent config', async () => {
    const path = new URL('../../examples/systemd/agent.yaml', import.meta.url).pathname;
    const config = await loadAgentConfig(path);
    expect([config.collect?.intervalMs, config.cleanup.maxDrainedMs]).toEqual([60_000, 2 * 3_600_000]);
  });
});
