/**
 * The long-running agent service (lib/agent/service.ts) end to end on 127.0.0.1: its activity
 * worker polls Step Functions (the SDK against the fake activity API), its collector loop reads the
 * fake Keystone/Nova and a fake Prometheus on its interval and sends to an ingest queue (the local
 * SQS stand-in), and stopping ends both. The last case runs `placid agent` as a process and sends
 * it SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SFNClient } from '@aws-sdk/client-sfn';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../lib/agent/config.js';
import { type AgentService, startAgentService } from '../../lib/agent/service.js';
import { sfnChannel } from '../../lib/agent/sfnChannel.js';
import { LocalActivities } from '../../lib/local/activities.js';
import { LocalSqsQueue } from '../../lib/local/sqsQueue.js';
import { systemClock } from '../../lib/model/clock.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import { collectFiles, startCloud } from '../collect/cloudFixture.js';
import { type FakePrometheus, startFakePrometheus } from '../drivers/prometheus/fakePrometheus.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';
import { FakeStepFunctions } from '../fakes/stepfunctions/server.js';
import { eventually } from '../helpers/eventually.js';

const ARN = 'arn:aws:states:us-east-1:123456789012:activity:AgentSteps';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/Placid-Ingest';

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.reverse()) await clean();
  cleanups = [];
});

/** The fake activity API, a fake cloud and Prometheus, and the agent's config file beside the collector's. */
async function world() {
  const activities = new LocalActivities(systemClock, 200);
  const sfn = await FakeStepFunctions.start({ activities, activityArns: [ARN] });
  const cloud: FakeOpenStack = await startCloud();
  // No series at all: each run still reports the inventory, with its steps as gaps.
  const prometheus: FakePrometheus = await startFakePrometheus(new Map());
  cleanups.push(
    () => sfn.close(),
    () => cloud.close(),
    () => prometheus.close(),
  );
  const files = collectFiles(cloud, prometheus.url);
  writeFileSync(join(files.dir, 'endpoints.json'), '{}');
  const agentConfig = (collect: boolean) =>
    JSON.stringify({
      activity_arn: ARN,
      worker_name: 'test-agent',
      concurrency: 1,
      credentials: { source: 'file', path: 'endpoints.json' },
      ...(collect ? { collect: { config: files.configPath, interval: '1s', queue_url: QUEUE_URL } } : {}),
    });
  return { activities, sfn, files, agentConfig };
}

function sdkChannel(endpoint: string) {
  return sfnChannel(
    new SFNClient({
      region: 'us-east-1',
      endpoint,
      credentials: { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
  );
}

describe('the agent service', () => {
  it('collects on its interval into the ingest queue, works activity tasks, and stops both', async () => {
    // Prepare
    const { activities, sfn, files, agentConfig } = await world();
    const config = parseAgentConfig(agentConfig(true), join(files.dir, 'agent.json'));
    const ingest = new LocalSqsQueue({ name: 'Placid-Ingest' });
    const log: Record<string, unknown>[] = [];
    const service: AgentService = await startAgentService(
      config,
      { log: (entry) => log.push(entry) },
      { channel: sdkChannel(sfn.endpoint), ingestQueue: ingest },
    );
    cleanups.push(async () => {
      service.abandon();
      await service.done;
    });
    // Act: two collector runs, and one task through the worker (a step it does not know)
    await eventually(
      () => log.filter((e) => e.event === 'collect-run').length >= 2,
      30_000,
      'two collect runs',
    );
    const task = await activities
      .schedule(ARN, { step: 'no-such-step', state: {} }, { heartbeatSeconds: 60 })
      .catch((error: Error) => error);
    service.stop();
    await service.done;
    const runsAtStop = log.filter((e) => e.event === 'collect-run').length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Assess: the reports arrived as the ingest stage reads them; nothing ran after the stop
    const bodies = ingest.messages().map((m) => m.body);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    const instances = bodies.flatMap((b) => parseReportMessage(b, new Date()).instances);
    expect(new Set(instances.map((i) => i.name))).toEqual(new Set(['web-1', 'db-1', 'vm-r', 'win-1']));
    expect(task).toBeInstanceOf(Error);
    expect(log.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'agent-started',
        'collect-run',
        'task-started',
        'task-failed',
        'agent-stopped',
      ]),
    );
    expect(log.at(-1)?.event).toBe('agent-stopped');
    expect(log.filter((e) => e.event === 'collect-run')).toHaveLength(runsAtStop);
    expect(log.some((e) => e.event === 'collect-error')).toBe(false);
  });

  it('`placid agent` stops on SIGTERM, exit status 0, after saying it stopped', async () => {
    // Prepare: the real command in its own process, its SDK pointed at the fake activity API
    const { sfn, files, agentConfig } = await world();
    const path = join(files.dir, 'agent.json');
    writeFileSync(path, agentConfig(false));
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'bin/placid.ts', 'agent', '--config', path],
      {
        env: {
          ...process.env,
          AWS_ENDPOINT_URL_SFN: sfn.endpoint,
          AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
          AWS_SECRET_ACCESS_KEY: 'local',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    let out = '';
    let signalled = false;
    const onOutput = (chunk: unknown) => {
      out += String(chunk);
      // Act: SIGTERM the moment the start line arrives, as a systemd stop right after start would;
      // the process must already be handling it then (it once died of the signal in that window).
      if (!signalled && out.includes('"agent-started"')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    const [code, signal] = await exited;
    // Assess
    expect(signalled, out).toBe(true);
    expect({ code, signal }, out).toEqual({ code: 0, signal: null });
    const events = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l).event);
    expect(events.at(-1)).toBe('agent-stopped');
  });
});
