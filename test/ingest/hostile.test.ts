/**
 * Hostile reports through the ingest stage (the real ingestBatch on dynalite, fed by the local SQS
 * queue): each is a typed refusal with the field named in the dead-letter reason, on first sight,
 * nothing in the store changes, and the next valid report is stored as usual.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPipeline } from '../../lib/local/pipeline.js';
import { DEAD_LETTER_ATTRIBUTE } from '../../lib/queue/poison.js';
import { hostileHostChange } from '../helpers/hostile.js';
import { body, hypervisorDoc, instanceDoc, nodeMessage, scanTable, startPipeline } from './harness.js';

let pipeline: LocalPipeline;
beforeAll(async () => {
  pipeline = await startPipeline();
});
afterAll(() => pipeline.close());

const snapshot = async () => ({
  hosts: await scanTable(pipeline, 'hosts'),
  instances: await scanTable(pipeline, 'instances'),
  samples: await scanTable(pipeline, 'samples'),
});

let serial = 0;
const fresh = (prefix: string) => `${prefix}-${++serial}`;

/** Ingests `message` and asserts it was refused on first sight with a reason naming `field`. */
async function expectRefused(message: string, field: RegExp) {
  const before = await snapshot();
  const queueBefore = pipeline.queues('ingest').queue.stats();
  const report = await pipeline.ingest([message]);
  expect(report.rejected).toEqual([{ index: 0, reason: expect.stringMatching(field) }]);
  expect(report.stored).toBe(0);
  // Dead-lettered by the handler with its reason, not retried until SQS gives up on it.
  const dead = pipeline.queues('ingest').deadLetter.messages().at(-1);
  expect(dead?.attributes[DEAD_LETTER_ATTRIBUTE.error]).toMatch(field);
  expect(pipeline.queues('ingest').queue.stats().failed).toBe(queueBefore.failed);
  expect(await snapshot()).toEqual(before);
}

/** The next valid report is stored and readable. */
async function expectNextValidStored() {
  const name = fresh('ok');
  const report = await pipeline.ingest([nodeMessage(name)]);
  expect(report).toMatchObject({ stored: 2, rejected: [] });
  expect(await pipeline.store.getHost(name)).toBeDefined();
}

describe('ingest stage: hostile reports', () => {
  it.each([
    // Issue 12 item 1: each of these was stored, then broke claims or DynamoDB on every later read.
    [
      'vCPUs of 4e15',
      { vcpus_total: 4e15 },
      /hypervisors\[0\]\.vcpus_total: must be a number from 0 to 65536 vCPUs, got 4000000000000000/,
    ],
    [
      'RAM of 4e15 MiB',
      { total_usable_ram_mb: 4e15 },
      /hypervisors\[0\]\.total_usable_ram_mb: .*0 to 67108864 MiB/,
    ],
    [
      'RAM of 1e200 MiB',
      { total_usable_ram_mb: 1e200, free_ram_mb: 1e200 },
      /total_usable_ram_mb: .*got 1e\+200/,
    ],
    ['a ratio of 1e306', { cpu_allocation_ratio: 1e306 }, /cpu_allocation_ratio: .*to 1000 ratio/],
    // Issue 12 item 2: a lone surrogate was stored and broke every later sample-page key.
    [
      'a lone surrogate in the host name',
      { host: 'cmp-\ud800' },
      /hypervisors\[0\]\.host: is not well-formed Unicode/,
    ],
    [
      'CRLF in the nodename',
      { nodename: 'n\r\n1' },
      /hypervisors\[0\]\.nodename: contains a control character/,
    ],
  ])('refuses %s, naming the field and the range', async (_case, change, field) => {
    // Act + Assess
    await expectRefused(body([hypervisorDoc({ host: fresh('bad'), ...change })]), field);
    await expectNextValidStored();
  });

  it('refuses an instance whose flavor is out of range, naming the field', async () => {
    // Prepare
    const host = fresh('vmhost');
    await pipeline.ingest([nodeMessage(host, 0)]);
    const flavor = { name: 'huge', vcpus: 1, memory_mb: 1e200, root_gb: 1, ephemeral_gb: 0, swap: 0 };
    // Act + Assess
    await expectRefused(
      body([], [instanceDoc({ uuid: fresh('vm'), host, nodename: host, flavor })]),
      /instances\[0\]\.flavor\.memory_mb: /,
    );
  });

  it('property: any hostile host field is a typed refusal naming it; nothing changes; the next report works', async () => {
    await fc.assert(
      fc.asyncProperty(hostileHostChange, async ({ field, value }) => {
        const doc = hypervisorDoc({ host: fresh('p'), nodename: undefined, [field]: value });
        await expectRefused(body([doc]), new RegExp(`hypervisors\\[0\\]\\.${field}: `));
        await expectNextValidStored();
      }),
      { numRuns: 12 },
    );
  });

  it('property: any value in any host field is stored or refused with its path; never retried; the next report works', async () => {
    const fields = [
      'vcpus_total',
      'free_ram_mb',
      'host',
      'nodename',
      'service',
      'aggregates',
      'samples',
      'stats',
      'traits',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 }), async (field, value) => {
        const host = fresh('any');
        const failedBefore = pipeline.queues('ingest').queue.stats().failed;
        const before = await snapshot();
        // Act
        const report = await pipeline.ingest([
          body([hypervisorDoc({ host, nodename: host, [field]: value })]),
        ]);
        // Assess
        expect(pipeline.queues('ingest').queue.stats().failed).toBe(failedBefore);
        if (report.rejected.length > 0) {
          expect(report.rejected[0].reason).toMatch(/hypervisors\[0\]/);
          expect(await snapshot()).toEqual(before);
        } else {
          // A generated host name may repeat one stored earlier, which makes the report stale.
          expect(report.stored + report.stale + report.unchanged).toBe(1);
        }
        await expectNextValidStored();
      }),
      { numRuns: 12 },
    );
  });
});
