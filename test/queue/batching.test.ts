import { describe, expect, it } from 'vitest';
import { chunkForBatch, type IndexedMessage } from '../../lib/queue/batching.js';

const messages = (count: number, bodyBytes = 10): IndexedMessage[] =>
  Array.from({ length: count }, (_, index) => ({ index, message: { body: 'x'.repeat(bodyBytes) } }));
const sizes = (chunks: IndexedMessage[][]) => chunks.map((c) => c.length);

describe('chunkForBatch', () => {
  it.each([
    [0, []],
    [1, [1]],
    [10, [10]],
    [11, [10, 1]],
    [25, [10, 10, 5]],
  ])('splits %i small messages into calls of at most ten', (count, expected) => {
    expect(sizes(chunkForBatch(messages(count)))).toEqual(expected);
  });

  it('starts a new call before the summed size would pass the byte limit', () => {
    // Prepare: 100 KiB each; two fit in 256 KiB, three do not
    const big = messages(5, 100 * 1024);
    // Act
    const chunks = chunkForBatch(big);
    // Assess
    expect(sizes(chunks)).toEqual([2, 2, 1]);
  });

  it('keeps the callers order and indexes', () => {
    const chunks = chunkForBatch(messages(12));
    expect(chunks.flat().map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
