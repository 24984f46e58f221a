/** The detector decides whether anything new arrived from the ingest watermark, not from host items. */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcile } from '../../lib/detector/index.js';
import { INGEST_WATERMARK_NAME } from '../../lib/store/ingestWatermark.js';
import { openHarness, type StoreHarness, startDynamo } from './harness.js';

let dynamo: StoreHarness;
beforeAll(async () => {
  dynamo = await startDynamo();
});
afterAll(async () => {
  await dynamo.local.close();
});

const newestHostReport = async (h: Awaited<ReturnType<typeof openHarness>>) =>
  (await h.store.listHosts())
    .map((x) => x.reported_at)
    .sort()
    .at(-1);

describe('the detector and the ingest watermark', () => {
  it('stays idle without reading hosts while no batch has been ingested, though hosts are stored', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    const { ctx } = h.store;
    await ctx.doc.send(
      new DeleteCommand({ TableName: ctx.tables.leases, Key: { name: INGEST_WATERMARK_NAME } }),
    );
    const listHosts = vi.spyOn(h.store, 'listHosts');
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.idle).toBe('no report ingested yet');
    expect(listHosts).not.toHaveBeenCalled();
  });

  it('reads no hosts on a run with no report newer than the last detection', async () => {
    // Prepare
    const h = await openHarness(dynamo, 'recommend');
    await reconcile(h.deps);
    h.advance(1);
    const listHosts = vi.spyOn(h.store, 'listHosts');
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(result.idle).toContain('no report newer');
    expect(listHosts).not.toHaveBeenCalled();
  });

  it('detects again when new reports arrived, though no host item was rewritten', async () => {
    // Prepare: the same fleet reported a minute later: every host state unchanged, so not written
    const h = await openHarness(dynamo, 'recommend');
    await reconcile(h.deps);
    const hostsBefore = await newestHostReport(h);
    h.advance(1);
    await h.report();
    // Act
    const result = await reconcile(h.deps);
    // Assess
    expect(await newestHostReport(h)).toBe(hostsBefore);
    expect(result.idle ?? '').not.toContain('no report newer');
    expect(result.suffering).toBeGreaterThan(0);
  });
});
