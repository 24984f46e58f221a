import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/model/errors.js';
import { INGEST_WATERMARK_NAME } from '../../lib/store/ingestWatermark.js';
import { at, useStore } from './fixtures.js';

const h = useStore();
beforeEach(async () => {
  const { ctx } = h.store;
  await ctx.doc.send(
    new DeleteCommand({ TableName: ctx.tables.leases, Key: { name: INGEST_WATERMARK_NAME } }),
  );
});

describe('the ingest watermark', () => {
  it('is null before any batch was ingested', async () => {
    // Prepare
    const { store } = h;
    // Act
    const watermark = await store.ingestWatermark();
    // Assess
    expect(watermark).toBeNull();
  });

  it('moves forward to a newer report time', async () => {
    // Prepare
    const { store } = h;
    await store.noteIngested(at(-5));
    // Act
    await store.noteIngested(at(-2));
    // Assess
    expect(await store.ingestWatermark()).toBe(at(-2));
  });

  it.each([
    ['an older', -9],
    ['the same', -2],
  ])('stays where it is when a batch notes %s report time', async (_name, minutes) => {
    // Prepare
    const { store } = h;
    await store.noteIngested(at(-2));
    // Act
    await store.noteIngested(at(minutes));
    // Assess
    expect(await store.ingestWatermark()).toBe(at(-2));
  });

  it('ends at the newest of batches noted concurrently, in any order', async () => {
    // Prepare
    const { store } = h;
    const times = [-7, -1, -4, -3, -6, -2].map(at);
    // Act
    await Promise.all(times.map((t) => store.noteIngested(t)));
    // Assess
    expect(await store.ingestWatermark()).toBe(at(-1));
  });

  it.each(['yesterday', '2026-12-01T12:00:00Z', ''])(
    'refuses %j, which would not compare in time order',
    async (bad) => {
      // Prepare
      const { store } = h;
      // Act
      const noting = store.noteIngested(bad);
      // Assess
      await expect(noting).rejects.toBeInstanceOf(ValidationError);
      await expect(noting).rejects.toThrow(/newestReportAt/);
    },
  );
});
