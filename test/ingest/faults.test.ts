import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type IngestPipelineStage, ingestPipelineStage } from '../../lib/local/ingestPipelineStage.js';
import type { LocalPipeline, PipelineStage } from '../../lib/local/pipeline.js';
import { type Injector, injectFaults, isCall, partialBatch, throttle } from './faults.js';
import {
  at,
  body,
  hypervisorDoc,
  instanceDoc,
  nodeMessage,
  samplePages,
  startPipeline,
  storedSampleCount,
} from './harness.js';

const table = (p: LocalPipeline, t: 'hosts' | 'instances' | 'samples') => p.dynamo.tableNames[t];

describe('ingest stage: DynamoDB pushing back', () => {
  it('retries throttled and partly unprocessed sample batches inside one delivery, losing nothing', async () => {
    // Prepare
    const pipeline = await startPipeline();
    const faults = injectFaults(pipeline.dynamo.client, [
      { when: isCall('BatchWriteCommand'), times: 3, act: throttle },
      { when: isCall('BatchWriteCommand'), times: 2, act: partialBatch },
    ]);
    // Two nodes per message, so each delivery writes a batch of two sample pages.
    const batch = ['t1', 't2', 't3'].map((m) => {
      const nodes = [`${m}a`, `${m}b`];
      return body(
        nodes.map((n) => hypervisorDoc({ host: n, nodename: n })),
        nodes.flatMap((n) => [0, 1].map((i) => instanceDoc({ uuid: `${n}-vm${i}`, host: n, nodename: n }))),
      );
    });
    try {
      // Act
      const report = await pipeline.ingest(batch);
      // Assess
      expect(faults.remaining()).toBe(0);
      expect(report).toMatchObject({ stored: 18, samples: 18, pages: 6, rejected: [] });
      expect(await samplePages(pipeline)).toHaveLength(6);
      expect(await storedSampleCount(pipeline)).toBe(18);
      expect(pipeline.queues('ingest').queue.stats()).toMatchObject({ delivered: 3, failed: 0 });
    } finally {
      await pipeline.close();
    }
  });

  it('sends back only the record whose write stayed throttled, and stores it on redelivery', async () => {
    // Prepare
    const pipeline = await startPipeline();
    injectFaults(pipeline.dynamo.client, [
      {
        when: (c) =>
          isCall('UpdateCommand', table(pipeline, 'hosts'))(c) &&
          (c.input.Key as { host: string }).host === 'h2',
        times: 1,
        act: throttle,
      },
    ]);
    try {
      // Act
      const report = await pipeline.ingest(['h1', 'h2', 'h3'].map((h) => nodeMessage(h, 1)));
      // Assess
      expect(report).toMatchObject({ stored: 6, rejected: [] });
      expect(pipeline.queues('ingest').queue.stats()).toMatchObject({
        delivered: 4,
        failed: 1,
        succeeded: 3,
      });
      expect((await pipeline.store.getHost('h2'))?.version).toBe(1);
    } finally {
      await pipeline.close();
    }
  });

  it('hands a batch write that outlives the store retries back to SQS, then completes it', async () => {
    // Prepare
    const pipeline = await startPipeline({ store: { retry: { maxAttempts: 2, sleep: async () => {} } } });
    injectFaults(pipeline.dynamo.client, [{ when: isCall('BatchWriteCommand'), times: 3, act: throttle }]);
    try {
      // Act
      const report = await pipeline.ingest([nodeMessage('slow', 2)]);
      // Assess
      expect(report).toMatchObject({ stored: 3, rejected: [] });
      expect(pipeline.queues('ingest').queue.stats()).toMatchObject({ delivered: 2, failed: 1 });
      expect(await storedSampleCount(pipeline)).toBe(3);
    } finally {
      await pipeline.close();
    }
  });

  it('moves a message that fails every delivery to the dead-letter queue with its last error', async () => {
    // Prepare
    const pipeline = await startPipeline({ ingest: { maxReceiveCount: 3 } });
    injectFaults(pipeline.dynamo.client, [{ when: isCall('UpdateCommand'), times: 100, act: throttle }]);
    try {
      // Act
      const report = await pipeline.ingest([nodeMessage('doomed', 0)]);
      // Assess
      expect(report.rejected).toEqual([
        {
          index: 0,
          reason: expect.stringMatching(/failed every delivery .*ProvisionedThroughputExceededException/),
        },
      ]);
      expect(pipeline.queues('ingest').queue.stats()).toMatchObject({ delivered: 3, deadLettered: 1 });
    } finally {
      await pipeline.close();
    }
  });
});

describe('ingest stage: a Lambda crash mid-batch, then redelivery', () => {
  /** The ingest stage, except the runtime dies right after the `crashAfter`-th host write lands. */
  function crashingIngest(crashAfter: number): {
    stage: PipelineStage;
    crashes: Error[];
    arm(p: LocalPipeline): Injector;
  } {
    const base: IngestPipelineStage = ingestPipelineStage();
    const crashes: Error[] = [];
    let dead = false;
    return {
      crashes,
      stage: {
        ...base,
        create: (resources, queues) => {
          const handler = base.create(resources, queues);
          return async (event: SQSEvent, context) => {
            dead = false;
            const reply = await handler(event, context);
            if (dead) throw crashes[0]; // the invocation never returns its reply
            return reply;
          };
        },
      },
      arm(pipeline) {
        let hostWrites = 0;
        return injectFaults(pipeline.dynamo.client, [
          {
            when: () => dead,
            times: Number.POSITIVE_INFINITY,
            act: async () => {
              throw crashes[0];
            },
          },
          {
            when: (c) =>
              isCall('UpdateCommand', pipeline.dynamo.tableNames.hosts)(c) && ++hostWrites === crashAfter,
            times: 1,
            act: async (command, send) => {
              await send(command);
              dead = true;
              crashes.push(
                Object.assign(new Error('Runtime exited with error: signal: killed'), {
                  name: 'Runtime.ExitError',
                }),
              );
              throw crashes[0];
            },
          },
        ]);
      },
    };
  }

  it('stores every valid report exactly once and never regresses a state to an older report', async () => {
    // Prepare
    const crash = crashingIngest(3);
    const pipeline = await startPipeline({ stage: crash.stage, store: { concurrency: 1 } });
    const ledger = crash.arm(pipeline); // also counts the writes that land, the one before the crash included
    const fresh = ['c0', 'c1', 'c2', 'c3', 'c4'].map((h) => nodeMessage(h, 2, at(-1)));
    const old = { nodename: 'c0', reported_at: at(-20) };
    const olderC0 = body(
      [
        hypervisorDoc({
          host: 'c0',
          ...old,
          vcpus_used: 15,
          samples: [{ ts: at(-20), steal_percent: 1, cpu_percent: 9, load5: 1 }],
        }),
      ],
      [
        instanceDoc({
          uuid: 'c0-vm0',
          host: 'c0',
          ...old,
          name: 'old',
          samples: [{ ts: at(-20), steal_percent: 1, load5: 1, cpu_percent: 9 }],
        }),
      ],
    );
    const duplicateOfC1 = fresh[1];
    try {
      // Act
      const report = await pipeline.ingest([...fresh, olderC0, duplicateOfC1]);
      const drained = await pipeline.drain();
      // Assess
      expect(crash.crashes).toHaveLength(1);
      expect(pipeline.queues('ingest').queue.stats()).toMatchObject({
        delivered: 14,
        failed: 7,
        succeeded: 7,
      });
      expect(report.rejected).toEqual([]);
      expect(pipeline.queues('ingest').queue.size).toBe(0);
      expect(drained.ingest.batches).toBe(0);
      const leases = pipeline.dynamo.tableNames.leases; // the ingest watermark is not a state
      const writes = [...ledger.stateWrites]
        .filter(([key]) => !key.startsWith(`${leases} `))
        .map(([, n]) => n);
      expect(writes).toHaveLength(15); // 5 hosts + 10 instances
      expect(writes.every((n) => n === 1)).toBe(true);
      const c0 = await pipeline.store.getHost('c0');
      expect(c0?.reported_at).toBe(at(-1));
      expect(c0?.state.vcpus_used).toBe(0);
      expect((await pipeline.store.getInstance('c0-vm0'))?.reported_at).toBe(at(-1));
      // Samples are history, not state: the older report's samples are kept too (a page of their own).
      expect(await samplePages(pipeline)).toHaveLength(6);
      expect(await storedSampleCount(pipeline)).toBe(17);
    } finally {
      await pipeline.close();
    }
  });
});
