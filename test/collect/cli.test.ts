import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../lib/cli/main.js';
import { parseReportMessage } from '../../lib/model/reports.js';
import { runCli } from '../cli/runCli.js';
import { startFakeApi, success } from '../drivers/prometheus/fakeApi.js';
import type { FakeOpenStack } from '../fakes/openstack/server.js';
import { collectFiles, startCloud } from './cloudFixture.js';

const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest';
const sqs = mockClient(SQSClient);

let cloud: FakeOpenStack | undefined;
let prometheus: Awaited<ReturnType<typeof startFakeApi>> | undefined;
beforeEach(() => sqs.reset());
afterEach(async () => {
  await cloud?.close();
  await prometheus?.close();
  cloud = undefined;
  prometheus = undefined;
});

/** The fake cloud, a Prometheus that knows no series, and the files `placid collect` reads. */
async function setup(extra: Parameters<typeof collectFiles>[2] = {}) {
  cloud = await startCloud();
  prometheus = await startFakeApi(() => ({ body: success([]) }));
  return collectFiles(cloud, prometheus.url, { openstack: { max_attempts: 1 }, ...extra });
}

describe('placid collect usage', () => {
  it.each([
    ['--once with --interval', ['--once', '--interval', '60s'], 'exclude each other'],
    ['--queue with --local', ['--queue', QUEUE, '--local'], '--queue excludes'],
    ['--queue with --data-dir', ['--queue', QUEUE, '--data-dir', '/tmp/x'], '--queue excludes'],
    ['--runs without --interval', ['--runs', '2'], '--runs needs --interval'],
    ['a queue that is not an SQS URL', ['--queue', 'placid-ingest'], 'is not an SQS queue URL'],
    ['an interval below a second', ['--interval', '10ms'], 'at least 1s'],
    ['a config file that is not there', [], 'cannot read /nonexistent/collect.yaml'],
  ])('exits 2 for %s', async (_what, args, reason) => {
    const run = await runCli(['collect', '--config', '/nonexistent/collect.yaml', ...args]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(reason);
  });

  it('exits 2 naming the field of a bad config', async () => {
    const files = await setup({ collect: { step: 'often' } } as never);
    const run = await runCli(['collect', '--config', files.configPath, '--data-dir', files.dataDir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('collect.step');
  });

  it('exits 2 naming a secret that is nowhere, without printing any secret', async () => {
    const files = await setup({ openstack: { secret: 'nova-prod' } });
    const run = await runCli(['collect', '--config', files.configPath, '--data-dir', files.dataDir]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('secret nova-prod');
  });
});

describe('placid collect runs', () => {
  it('stores locally and prints a summary; VMs without series do not make it incomplete', async () => {
    const files = await setup();
    const run = await runCli(['collect', '--config', files.configPath, '--data-dir', files.dataDir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/: complete\n {2}hosts {5}2 \(0 samples\)\n {2}vms {7}4 \(0 samples\)/);
    expect(run.stdout).toContain('VMs with no series: 4');
    // No terminal here: no progress line.
    expect(run.stderr).toBe('');
  });

  it('shows progress on stderr when it is a terminal, and clears the line', async () => {
    vi.stubEnv('CI', '');
    const files = await setup();
    let stderr = '';
    const io = {
      stdout: { write: () => true },
      stderr: { isTTY: true, write: (s: string) => (stderr += s) },
    };
    const status = await main(['collect', '--config', files.configPath, '--data-dir', files.dataDir], io);
    vi.unstubAllEnvs();
    expect(status).toBe(0);
    // Eight distinct queries: node_load5 and the node_cpu resets serve both VMs and hosts.
    expect(stderr).toContain('collect: queries 8/8');
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('exits 4 and sends nothing when the Nova inventory cannot be read', async () => {
    const files = await setup();
    cloud?.setFault('listHypervisors', { kind: 'status', status: 500 });
    const run = await runCli([
      'collect',
      '--config',
      files.configPath,
      '--data-dir',
      files.dataDir,
      '--json',
    ]);
    const summary = JSON.parse(run.stdout);
    expect([run.status, summary.failed, summary.messages.built]).toEqual([4, true, 0]);
    expect(summary.problems[0]).toContain('hypervisors');
  });

  it('exits 1 when Prometheus fails, after sending what Nova said', async () => {
    const files = await setup({ prometheus: { url: 'http://127.0.0.1:9', max_attempts: 1 } } as never);
    const run = await runCli([
      'collect',
      '--config',
      files.configPath,
      '--data-dir',
      files.dataDir,
      '--json',
    ]);
    const summary = JSON.parse(run.stdout);
    expect([run.status, summary.complete, summary.hosts]).toEqual([1, false, 2]);
    expect(summary.messages.sent).toBe(summary.messages.built);
    expect(summary.gaps.source_error).toBe(6);
  });

  it('runs every interval, one summary per run, and stops after --runs', async () => {
    const files = await setup();
    const run = await runCli([
      'collect',
      '--config',
      files.configPath,
      '--data-dir',
      files.dataDir,
      '--interval',
      '1s',
      '--runs',
      '2',
      '--json',
    ]);
    const summaries = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect([run.status, summaries.length]).toEqual([0, 2]);
  });

  it('sends to an SQS queue in batches, every message valid', async () => {
    const files = await setup();
    const bodies: string[] = [];
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: SendMessageBatchRequestEntry[] }) => {
      bodies.push(...input.Entries.map((e) => e.MessageBody ?? ''));
      return {
        Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: '' })),
        Failed: [],
      };
    });
    const run = await runCli(['collect', '--config', files.configPath, '--queue', QUEUE, '--json']);
    const summary = JSON.parse(run.stdout);
    expect([run.status, summary.messages.sent, bodies.length]).toEqual([0, 1, 1]);
    const message = parseReportMessage(bodies[0], new Date());
    expect([message.hypervisors.length, message.instances.length]).toEqual([2, 4]);
  });

  it('exits 4 when the queue refuses every message', async () => {
    const files = await setup();
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: SendMessageBatchRequestEntry[] }) => ({
      Successful: [],
      Failed: input.Entries.map((e) => ({
        Id: e.Id,
        Code: 'AccessDenied',
        Message: 'no',
        SenderFault: true,
      })),
    }));
    const run = await runCli(['collect', '--config', files.configPath, '--queue', QUEUE]);
    expect(run.status).toBe(4);
    expect(run.stdout).toContain('messages refused: 1');
  });
});
