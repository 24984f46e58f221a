import 'aws-sdk-client-mock-vitest/extend';
import { Readable } from 'node:stream';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runIngestCommand } from '../../lib/cli/ingest.js';
import { LocalPipeline } from '../../lib/local/pipeline.js';
import { body, hypervisorDoc, instanceDoc, nodeMessage } from '../ingest/harness.js';
import { runCli, tempFiles } from './runCli.js';

const EXAMPLES = 'examples/reports';
const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest';

describe('placid ingest (local store)', () => {
  const files = tempFiles('placid-ingest-');
  let dirs = 0;
  const dataDir = () => `${files.dir}/store-${++dirs}`;

  it('stores a valid message and says how many reports it stored', async () => {
    // Act
    const run = await runCli(['ingest', `${EXAMPLES}/fleet.json`, '--data-dir', dataDir()]);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`1 message from ${EXAMPLES}/fleet.json into the local store at`);
    expect(run.stdout).toContain('stored    8 reports\n');
    expect(run.stdout).toContain('samples   21 written');
    expect(run.stdout).not.toContain('rejected');
  });

  it('counts reports it already has as stale, and still succeeds', async () => {
    // Prepare
    const dir = dataDir();
    await runCli(['ingest', `${EXAMPLES}/fleet.json`, '--data-dir', dir]);
    // Act
    const run = await runCli(['ingest', `${EXAMPLES}/fleet.json`, '--data-dir', dir]);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('stored    0 reports\n');
    expect(run.stdout).toContain('stale     8 reports');
  });

  it('prints every problem of a rejected message and exits 1', async () => {
    // Act
    const run = await runCli(['ingest', `${EXAMPLES}/invalid.json`, '--data-dir', dataDir()]);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('rejected  1 of 1 message:');
    expect(run.stdout).toContain(`${EXAMPLES}/invalid.json: hypervisors[0].vcpus_total:`);
    expect(run.stdout).toContain(
      'hypervisors[0].samples[0].steal_percent: must be a number from 0 to 100 percent, got 140',
    );
  });

  it('reads JSON Lines and names the line of each rejected message, storing the others', async () => {
    // Prepare
    const path = files.write('reports.jsonl', `${nodeMessage('l1')}\nnot json\n\n${nodeMessage('l4')}\n`);
    // Act
    const run = await runCli(['ingest', path, '--data-dir', dataDir()]);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('3 messages from');
    expect(run.stdout).toContain('stored    4 reports');
    expect(run.stdout).toMatch(/rejected {2}1 of 3 messages:\n {4}line 2: \(root\): is not JSON/);
  });

  it('reads a JSON array of messages and names the element of a rejected one', async () => {
    // Prepare
    const orphan = JSON.parse(body([], [instanceDoc({ uuid: 'o', host: 'nowhere', nodename: 'nowhere' })]));
    const path = files.write('reports.json', [JSON.parse(nodeMessage('a1')), orphan]);
    // Act
    const run = await runCli(['ingest', path, '--data-dir', dataDir()]);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('[1]: instances[0].host: nowhere is not a known compute node');
  });

  it('reads standard input for -', async () => {
    // Prepare
    let stdout = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } };
    // Act
    const status = await runIngestCommand(
      '-',
      { dataDir: dataDir() },
      io,
      Readable.from([nodeMessage('piped', 2)]),
    );
    // Assess
    expect(status).toBe(0);
    expect(stdout).toContain('1 message from standard input');
    expect(stdout).toContain('stored    3 reports');
  });

  it('stores into a data directory another placid process has open (one store server for both)', async () => {
    // Prepare
    const dir = dataDir();
    const holder = await LocalPipeline.start({ dataDir: dir });
    try {
      // Act
      const run = await runCli(['ingest', `${EXAMPLES}/fleet.json`, '--data-dir', dir]);
      // Assess
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(await holder.store.getHost('cmp-az1-01')).toBeDefined();
    } finally {
      await holder.close();
    }
  });

  it.each([
    ['no file argument', () => ['ingest'], /missing required argument 'file'/],
    [
      'a file that does not exist',
      () => ['ingest', `${files.dir}/nope.json`],
      /cannot read .*nope\.json: no such file/,
    ],
    [
      'an empty file',
      () => ['ingest', files.write('empty.json', '\n')],
      /is empty: expected report messages/,
    ],
    ['an empty array', () => ['ingest', files.write('none.json', [])], /is an empty array/],
    [
      '--queue together with --data-dir',
      () => ['ingest', `${EXAMPLES}/fleet.json`, '--queue', QUEUE, '--data-dir', files.dir],
      /--data-dir and --queue exclude each other/,
    ],
    [
      'a --queue that is not an SQS URL',
      () => ['ingest', `${EXAMPLES}/fleet.json`, '--queue', 'placid-ingest'],
      /is not an SQS queue URL/,
    ],
  ])('exits 2 on a usage error: %s', async (_, argv, message) => {
    // Act
    const run = await runCli(argv());
    // Assess
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe('placid ingest --queue', () => {
  const sqs = mockClient(SQSClient);
  const files = tempFiles('placid-ingest-queue-');
  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
      Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: '' })),
    }));
  });
  afterAll(() => sqs.restore());

  it('sends the messages to the queue and says the stage stores them later', async () => {
    // Prepare
    const path = files.write('ok.jsonl', `${nodeMessage('q1', 1)}\n${nodeMessage('q2', 1)}\n`);
    // Act
    const run = await runCli(['ingest', path, '--queue', QUEUE]);
    // Assess
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`sent      2 messages (4 reports) to ${QUEUE}`);
    expect(sqs).toHaveReceivedCommandWith(SendMessageBatchCommand, { QueueUrl: QUEUE });
  });

  it('does not send a message that fails validation, and exits 1 naming it', async () => {
    // Prepare
    const bad = body([
      hypervisorDoc({
        host: 'bad',
        samples: [{ ts: '2026-12-01T11:59:00Z', steal_percent: 140, cpu_percent: 1, load5: 1 }],
      }),
    ]);
    const path = files.write('mixed.jsonl', `${nodeMessage('q3', 0)}\n${bad}\n`);
    // Act
    const run = await runCli(['ingest', path, '--queue', QUEUE]);
    // Assess
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('sent      1 message (1 report)');
    expect(run.stdout).toContain(
      'line 2: hypervisors[0].samples[0].steal_percent: must be a number from 0 to 100 percent, got 140',
    );
    const entries = sqs.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries ?? []);
    expect(entries).toHaveLength(1);
  });
});
