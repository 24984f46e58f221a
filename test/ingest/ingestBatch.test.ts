import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPipeline } from '../../lib/local/pipeline.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../lib/queue/poison.js';
import { at, body, hypervisorDoc, instanceDoc, nodeMessage, scanTable, startPipeline } from './harness.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const manySamples = Array.from({ length: 721 }, (_, i) => ({
  ts: new Date(Date.parse(at(-60)) + i * 1000).toISOString(),
  steal_percent: 1,
  cpu_percent: 1,
  load5: 1,
}));

/** Messages the ingest stage must dead-letter with a reason naming the problem. */
const MALFORMED: [string, () => string, RegExp][] = [
  ['not JSON', () => '{"schema_version": 1, "hypervisors": [', /\(root\): is not JSON/],
  ['JSON that is not an object', () => '[1, 2]', /must be a JSON object/],
  [
    'a wrong type',
    () => body([hypervisorDoc({ host: 'bad-type', vcpus_total: 'sixteen' })]),
    /hypervisors\[0\]\.vcpus_total: expected a number from 0 to 65536 vCPUs/,
  ],
  [
    'a missing field',
    () => body([], [instanceDoc({ uuid: 'no-flavor', flavor: undefined })]),
    /instances\[0\]\.flavor/,
  ],
  [
    '140 % steal',
    () =>
      body([
        hypervisorDoc({
          host: 'noisy',
          samples: [{ ts: at(-1), steal_percent: 140, cpu_percent: 40, load5: 2 }],
        }),
      ]),
    /hypervisors\[0\]\.samples\[0\]\.steal_percent: must be a number from 0 to 100 percent, got 140/,
  ],
  [
    'an unknown schema_version',
    () => JSON.stringify({ schema_version: 2, hypervisors: [hypervisorDoc({ host: 'v2' })] }),
    /schema_version: unsupported schema_version 2/,
  ],
  [
    'a huge body',
    () => body([hypervisorDoc({ host: 'huge', padding: 'x'.repeat(300 * 1024) })]),
    /is 300\.\d KiB; a message may be at most 256 KiB/,
  ],
  [
    'nesting deeper than 32 levels',
    () => body([hypervisorDoc({ host: 'deep', extra_blob: nested(40) })]),
    /nested more than 32 levels deep/,
  ],
  [
    'hostile nesting (100,000 levels)',
    () => `{"schema_version":1,"hypervisors":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`,
    /nested more than 32 levels deep/,
  ],
  [
    'duplicate instance ids',
    () =>
      body([hypervisorDoc({ host: 'dup' })], [instanceDoc({ host: 'dup' }), instanceDoc({ host: 'dup' })]),
    /instances\[1\]\.uuid: duplicate instance uuid/,
  ],
  [
    'a timestamp far in the future',
    () => body([hypervisorDoc({ host: 'future', reported_at: '2027-06-01T00:00:00Z' })]),
    /hypervisors\[0\]\.reported_at: .* ahead of the receiver's clock/,
  ],
  [
    'too many samples',
    () => body([hypervisorDoc({ host: 'chatty', samples: manySamples })]),
    /has 721 samples; at most 720 per report/,
  ],
  ['no reports', () => JSON.stringify({ schema_version: 1 }), /carries no reports/],
  [
    'an instance on an unknown host',
    () => body([], [instanceDoc({ uuid: 'orphan', host: 'ghost', nodename: 'ghost' })]),
    /instances\[0\]\.host: ghost is not a known compute node/,
  ],
];

describe('ingest stage: malformed messages', () => {
  let pipeline: LocalPipeline;
  beforeAll(async () => {
    // SQS queues may take up to 1 MiB; the stage itself must still refuse bodies over 256 KiB.
    pipeline = await startPipeline({ ingest: { maxMessageBytes: 1024 * 1024 } });
  });
  afterAll(() => pipeline.close());

  it.each(MALFORMED)(
    'dead-letters a message with %s, with the reason, and stores the rest of its batch',
    async (name, bad, reason) => {
      // Prepare
      const good = [nodeMessage(`before-${name}`), nodeMessage(`after-${name}`)];
      const badBody = bad();
      // Act
      const report = await pipeline.ingest([good[0], badBody, good[1]]);
      // Assess
      expect(report.rejected).toEqual([{ index: 1, reason: expect.stringMatching(reason) }]);
      expect(report.stored).toBe(4);
      expect(await pipeline.store.getHost(`before-${name}`)).toBeDefined();
      expect(await pipeline.store.getHost(`after-${name}`)).toBeDefined();
      const dead = pipeline.queues('ingest').deadLetter.messages().at(-1);
      expect(dead?.attributes[DEAD_LETTER_ATTRIBUTE.error]).toMatch(reason);
      expect(badBody.startsWith(dead?.body ?? '\u0000')).toBe(true);
    },
  );

  it('never retries a malformed message', async () => {
    // Prepare
    const before = pipeline.queues('ingest').queue.stats();
    // Act
    await pipeline.ingest(['not json']);
    // Assess
    const after = pipeline.queues('ingest').queue.stats();
    expect(after.delivered - before.delivered).toBe(1);
    expect(after.failed - before.failed).toBe(0);
  });

  it('counts the reports of a rejected message as rejected', async () => {
    // Prepare
    const tally = () => pipeline.stage('ingest') as unknown as { tally(): { rejected: number } };
    const before = tally().tally().rejected;
    // Act
    await pipeline.ingest([
      body([], [instanceDoc({ uuid: 'o1', host: 'gone' }), instanceDoc({ uuid: 'o2', host: 'gone' })]),
    ]);
    // Assess
    expect(tally().tally().rejected - before).toBe(2);
  });
});

describe('ingest stage: valid messages', () => {
  let pipeline: LocalPipeline;
  beforeAll(async () => {
    pipeline = await startPipeline();
  });
  afterAll(() => pipeline.close());

  it('stores every report and sample of a batch once; a redelivered batch changes nothing', async () => {
    // Prepare
    const batch = ['v1', 'v2', 'v3'].map((h) => nodeMessage(h, 2));
    // Act
    const first = await pipeline.ingest(batch);
    const again = await pipeline.ingest(batch);
    // Assess
    expect(first).toMatchObject({ messages: 3, stored: 9, stale: 0, samples: 9, pages: 3, rejected: [] });
    expect(again).toMatchObject({ stored: 0, unchanged: 0, stale: 9, samples: 9, pages: 3, rejected: [] });
    expect((await pipeline.store.getHost('v1'))?.version).toBe(1);
    expect(await pipeline.store.instancesByHost('v2')).toHaveLength(2);
  });

  it('rewrites the same sample pages for a redelivered message, adding none', async () => {
    // Prepare
    const message = nodeMessage('same-pages', 3);
    await pipeline.ingest([message]);
    const before = await scanTable(pipeline, 'samples');
    // Act
    await pipeline.ingest([message]);
    // Assess
    expect(await scanTable(pipeline, 'samples')).toEqual(before);
  });

  it('counts newer reports of an unchanged host and instances as unchanged, not stored', async () => {
    // Prepare
    await pipeline.ingest([nodeMessage('steady', 2, at(-3))]);
    // Act
    const report = await pipeline.ingest([nodeMessage('steady', 2, at(-2))]);
    // Assess: neither the host nor its two VMs are written again; their samples are
    expect(report).toMatchObject({ stored: 0, unchanged: 3, stale: 0, samples: 3, pages: 1, rejected: [] });
    expect((await pipeline.store.getInstance('steady-vm1'))?.reported_at).toBe(at(-3));
    expect((await pipeline.store.getHost('steady'))?.reported_at).toBe(at(-3));
  });

  it('reports a message the queue refuses as too large, storing the rest', async () => {
    // Prepare
    const huge = body([hypervisorDoc({ host: 'too-big', padding: 'x'.repeat(300 * 1024) })]);
    // Act
    const report = await pipeline.ingest([huge, nodeMessage('small')]);
    // Assess
    expect(report.rejected).toEqual([
      { index: 0, reason: expect.stringMatching(/^the queue refused it: .* \(MessageTooLong\)$/) },
    ]);
    expect(report.stored).toBe(2);
  });

  it('accepts an instance on a host stored by an earlier message', async () => {
    // Prepare
    await pipeline.ingest([nodeMessage('known', 0)]);
    // Act
    const report = await pipeline.ingest([
      body([], [instanceDoc({ uuid: 'late-vm', host: 'known', nodename: 'known' })]),
    ]);
    // Assess
    expect(report).toMatchObject({ stored: 1, rejected: [] });
  });

  it('accepts an instance whose host is reported in the same message', async () => {
    // Act
    const report = await pipeline.ingest([nodeMessage('together', 1)]);
    // Assess
    expect(report).toMatchObject({ stored: 2, rejected: [] });
  });

  it('rejects an instance that names a known host but another node of it', async () => {
    // Prepare
    await pipeline.ingest([nodeMessage('ironic', 0)]);
    // Act
    const report = await pipeline.ingest([
      body([], [instanceDoc({ uuid: 'bm-1', host: 'ironic', nodename: 'node-7' })]),
    ]);
    // Assess
    expect(report.rejected).toEqual([
      { index: 0, reason: expect.stringMatching(/ironic \(node node-7\) is not a known compute node/) },
    ]);
  });

  it('keeps the newer state when an older report arrives later', async () => {
    // Prepare
    await pipeline.ingest([nodeMessage('ordered', 1, at(-1))]);
    // Act
    const report = await pipeline.ingest([nodeMessage('ordered', 1, at(-30))]);
    // Assess
    expect(report).toMatchObject({ stored: 0, stale: 2 });
    expect((await pipeline.store.getHost('ordered'))?.reported_at).toBe(at(-1));
    expect((await pipeline.store.getInstance('ordered-vm0'))?.reported_at).toBe(at(-1));
  });
});
