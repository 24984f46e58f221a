import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/client.js';
import { FleetStore } from '../../lib/store/fleetStore.js';
import { pageKey } from '../../lib/store/sampleWrites.js';
import { tableNames } from '../../lib/store/tables.js';
import { digestWrites } from '../../lib/store/windowDigest.js';
import { at, hypervisorDoc, instanceDoc, message } from './fixtures.js';

const doc = createDocumentClient({ endpoint: 'http://127.0.0.1:9' });
const ddb = mockClient(doc);
const store = new FleetStore({
  doc,
  tables: tableNames('t-'),
  retry: { sleep: async () => {}, maxAttempts: 2 },
});

/** Node `host` with its own sample and `vms` VMs, one sample each: one page of 1 + vms samples. */
const nodePages = (host: string, vms: number) =>
  store.samplePages(
    message(
      [hypervisorDoc({ host, nodename: host })],
      Array.from({ length: vms }, (_, i) =>
        instanceDoc({ uuid: `${host}-vm${i}`, host, nodename: host, reported_at: at(-1) }),
      ),
    ),
  );

describe('putSamplePages', () => {
  beforeEach(() => {
    ddb.reset();
  });

  it('writes the pages of many messages together and counts their samples', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).resolves({});
    const pages = [...nodePages('a', 2), ...nodePages('b', 0), ...nodePages('c', 4)];
    // Act
    const result = await store.putSamplePages(pages);
    // Assess
    // one call: the three pages and the one digest of their minute
    expect(result).toEqual({
      written: 3,
      calls: 1,
      retries: 0,
      samples: 3 + 1 + 5,
      digests: 1,
      failures: [],
    });
  });

  it('returns the pages DynamoDB would not take, and counts only the samples written', async () => {
    // Prepare: every call hands back the page of node b
    const lost = nodePages('b', 3);
    ddb.on(BatchWriteCommand).resolves({
      UnprocessedItems: { [store.ctx.tables.samples]: [{ PutRequest: { Item: { ...lost[0].item } } }] },
    });
    // Act
    const result = await store.putSamplePages([...nodePages('a', 1), ...lost]);
    // Assess
    expect(result.failures.map((f) => f.pages.map(pageKey))).toEqual([[pageKey(lost[0].item)]]);
    expect(result).toMatchObject({ written: 1, samples: 2 });
  });

  it('fails every page whose window digest DynamoDB would not take, so their messages are retried', async () => {
    // Prepare: the digest of the batch (one minute, so one item) keeps coming back unprocessed
    const pages = [...nodePages('d1', 2), ...nodePages('d2', 1)];
    const [digest] = digestWrites(pages);
    ddb.on(BatchWriteCommand).resolves({
      UnprocessedItems: { [store.ctx.tables.samples]: [{ PutRequest: { Item: { ...digest.item } } }] },
    });
    // Act
    const result = await store.putSamplePages(pages);
    // Assess
    expect(result.failures.flatMap((f) => f.pages.map(pageKey)).sort()).toEqual(
      pages.map((p) => pageKey(p.item)).sort(),
    );
    expect(result).toMatchObject({ written: 0, samples: 0, digests: 0 });
  });

  it('writes a page two messages share once', async () => {
    // Prepare
    ddb.on(BatchWriteCommand).resolves({});
    // Act
    const result = await store.putSamplePages([...nodePages('twice', 1), ...nodePages('twice', 1)]);
    // Assess
    expect(result).toMatchObject({ written: 1, samples: 2 });
  });
});
