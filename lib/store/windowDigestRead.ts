/**
 * Reading a window digest item (windowDigest.ts writes them) without an object per sample or per
 * owner: an entry points into the item's one array of values. At 10,000 hosts a detection reads
 * 2.2 million owner-minutes; a typed-array view for each was most of the merge's garbage.
 */
import { inflateRawSync } from 'node:zlib';
import { align8 } from './windowDigest.js';

/**
 * One page's samples of one minute: SAMPLE_STRIDE numbers a sample (ms into the minute, steal,
 * cpu, load5) in `values`, from sample `first` on: the node's own `hostCount` samples, then each
 * VM's, in the order of `counts`.
 */
export interface DigestEntry {
  /** The page's partition key (nodeEntityKey). */
  node: string;
  /** The page's sort key: of two samples with one `ts`, the one from the greater page key wins. */
  page: string;
  /** The page's `expires_at` (epoch seconds). */
  expires: number;
  /** Every value of the item (shared by its entries). */
  values: Float64Array;
  first: number;
  hostCount: number;
  /** uuid, sample count, uuid, sample count, … */
  counts: readonly (string | number)[];
}

type Header = [node: string, page: string, expires: number, hostCount: number, counts: (string | number)[]];

/** The entries of a stored digest item. */
export function digestEntries(item: Record<string, unknown>): DigestEntry[] {
  const buffer = inflateRawSync(item.d as Uint8Array);
  const length = buffer.readUInt32LE(0);
  const header = JSON.parse(buffer.toString('utf8', 4, 4 + length)) as Header[];
  const start = align8(4 + length);
  // Copied into an aligned buffer: a Float64Array view needs an offset that is a multiple of 8.
  const values = new Float64Array((buffer.length - start) / 8);
  new Uint8Array(values.buffer).set(buffer.subarray(start));
  let first = 0;
  return header.map(([node, page, expires, hostCount, counts]) => {
    const entry = { node, page, expires, values, first, hostCount, counts };
    let samples = hostCount;
    for (let i = 1; i < counts.length; i += 2) samples += counts[i] as number;
    first += samples;
    return entry;
  });
}
