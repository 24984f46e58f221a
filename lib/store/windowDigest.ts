/**
 * Window digests: the detector's copy of the samples, laid out by time instead of by node, so a
 * detection reads the sustained window with one paginated Query per (minute, shard) instead of one
 * per compute node (issue 17). Ingest writes them in the same BatchWriteItem calls as the sample
 * pages (sampleWrites.ts), derived from those pages: one item per minute the pages' samples fall in
 * (and per 350 KB), each in one of WINDOW_SHARDS partitions so no single partition takes every
 * write of a minute.
 *
 * A digest entry keeps, per page: its node, its sort key, its expiry and the four numbers per
 * sample the detector reads (`ts` as milliseconds into the minute, steal, cpu, load5), as deflated
 * JSON. JSON round-trips every double exactly, so a reader gets the very values the pages hold;
 * keeping the page's sort key lets it resolve a timestamp stored twice the way nodeWindow does (the
 * later page wins). Items are keyed by a hash of their content: a redelivered batch rewrites the
 * same items; a message redelivered in another batch makes new items the reader de-duplicates.
 */
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import type { HostSample } from '../model/reports.js';
import { epochSeconds } from './context.js';
import type { PageWrite, SamplePage } from './samplePages.js';

/** Partitions per minute; changing it loses the digests written before (readers fall back to pages). */
export const WINDOW_SHARDS = 4;
/**
 * Digests expire this long after their newest sample (or with their pages, if sooner): a
 * detection window longer than this is read from the pages instead (fleetWindows.ts).
 */
export const WINDOW_KEEP_SECONDS = 3 * 3600;
/**
 * Sample JSON per item (as pages hold it, about 25 bytes a sample against 32 in a digest): under
 * DynamoDB's 400 KB item limit even if deflating gained nothing.
 */
export const MAX_DIGEST_JSON_BYTES = 250 * 1024;
const MINUTE_MS = 60_000;

/** A digest item as stored in the samples table. */
export interface WindowDigestItem {
  /** `window/<shard>/<minute>`, the minute as `YYYY-MM-DDTHH:MM` (UTC). */
  entity: string;
  /** 24 hex digits of sha-256 over the content. */
  ts: string;
  /** The entries, deflated (see `encode`). */
  d: Uint8Array;
  /** Item TTL: the latest of its entries' `min(page expiry, newest sample + WINDOW_KEEP_SECONDS)`. */
  expires_at: number;
}

/** A digest to write and the pages whose samples it carries (they fail together). */
export interface DigestWrite {
  item: WindowDigestItem;
  pages: readonly Pick<SamplePage, 'entity' | 'ts'>[];
}

/** Values per sample in a flat array. */
export const SAMPLE_STRIDE = 4;

/** `[node, page, expires, hostFlat, [uuid, flat, uuid, flat, …]]`; a flat array holds 4 numbers a sample. */
type Encoded = [string, string, number, number[], (string | number[])[]];

export const windowEntityKey = (shard: number, minute: string): string => `window/${shard}/${minute}`;

/** The minute a canonical ISO timestamp falls in, as its partition names it. */
export const minuteOf = (ts: string): string => ts.slice(0, 16);

/** Every minute from `from`'s to `to`'s, inclusive, as partitions name them. */
export function minutesBetween(from: Date, to: Date): string[] {
  const out: string[] = [];
  const first = Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS;
  for (let t = first; t <= to.getTime(); t += MINUTE_MS) out.push(minuteOf(new Date(t).toISOString()));
  return out;
}

/**
 * The digest items for `pages` (each with the samples it holds: as built, or storedSamplesByOwner
 * of a page read back): each page's samples split by minute, a minute's entries into items.
 */
export function digestWrites(pages: readonly Pick<PageWrite, 'item' | 'byOwner'>[]): DigestWrite[] {
  const byMinute = new Map<string, { entry: Encoded; json: string; page: SamplePage; newest: string }[]>();
  const sorted = [...pages].sort(
    (a, b) => compare(a.item.entity, b.item.entity) || compare(a.item.ts, b.item.ts),
  );
  for (const { item: page, byOwner } of sorted) {
    for (const [minute, part] of splitByMinute(page, byOwner)) {
      const json = JSON.stringify(part.entry);
      const list = byMinute.get(minute) ?? [];
      list.push({ entry: part.entry, json, page, newest: part.newest });
      byMinute.set(minute, list);
    }
  }
  const out: DigestWrite[] = [];
  for (const [minute, parts] of byMinute) {
    let chunk: typeof parts = [];
    let bytes = 0;
    const flush = () => {
      if (chunk.length > 0) out.push(digestItem(minute, chunk));
      chunk = [];
      bytes = 0;
    };
    for (const part of parts) {
      const partBytes = part.json.length + 1;
      if (bytes + partBytes > MAX_DIGEST_JSON_BYTES) flush();
      chunk.push(part);
      bytes += partBytes;
    }
    flush();
  }
  return out;
}

/** A page's samples (`owners`, the values its JSON holds) per minute, each minute's as one encoded entry. */
function splitByMinute(
  page: SamplePage,
  owners: PageWrite['byOwner'],
): Map<string, { entry: Encoded; newest: string }> {
  const parts = new Map<string, { entry: Encoded; newest: string }>();
  const partOf = (ts: string) => {
    const minute = minuteOf(ts);
    let part = parts.get(minute);
    if (!part) {
      part = { entry: [page.entity, page.ts, page.expires_at, [], []], newest: ts };
      parts.set(minute, part);
    }
    if (ts > part.newest) part.newest = ts;
    return part;
  };
  if (page.host_samples !== undefined)
    for (const s of owners.get('') ?? []) pushFlat(partOf(s.ts).entry[3], s);
  // In the order the stored map lists them, as a reader parsing the page would.
  for (const uuid of Object.keys(page.vm_samples ?? {})) {
    const own = new Map<string, number[]>();
    for (const s of owners.get(uuid) ?? []) {
      const part = partOf(s.ts);
      let list = own.get(minuteOf(s.ts));
      if (!list) {
        list = [];
        own.set(minuteOf(s.ts), list);
        part.entry[4].push(uuid, list);
      }
      pushFlat(list, s);
    }
  }
  return parts;
}

/**
 * Appends `[ms into its minute, steal, cpu, load5]`, the fields detection reads, in a fixed order.
 * `+ 0` turns -0 into 0, as the page's JSON does (JSON.stringify(-0) is "0").
 */
function pushFlat(
  out: number[],
  s: Pick<HostSample, 'ts' | 'steal_percent' | 'cpu_percent' | 'load5'>,
): void {
  out.push(Date.parse(s.ts) % MINUTE_MS, s.steal_percent + 0, s.cpu_percent + 0, s.load5 + 0);
}

function digestItem(
  minute: string,
  parts: readonly { entry: Encoded; json: string; page: SamplePage; newest: string }[],
): DigestWrite {
  const entries = parts.map((p) => p.entry);
  // The text JSON.stringify(entries) would give, from each entry's JSON already made for its size.
  const hash = createHash('sha256')
    .update(`${minute}\n[${parts.map((p) => p.json).join(',')}]`)
    .digest('hex');
  const shard = Number.parseInt(hash.slice(0, 8), 16) % WINDOW_SHARDS;
  let expires = 0;
  for (const p of parts) {
    const keep = epochSeconds(Date.parse(p.newest)) + WINDOW_KEEP_SECONDS;
    expires = Math.max(expires, Math.min(p.page.expires_at, keep));
  }
  return {
    item: {
      entity: windowEntityKey(shard, minute),
      ts: hash.slice(0, 24),
      d: encode(entries),
      expires_at: expires,
    },
    pages: parts.map((p) => ({ entity: p.page.entity, ts: p.page.ts })),
  };
}

/**
 * Deflated `[u32 header bytes][header JSON][padding to 8][float64 values]`: the header holds the
 * strings and how many samples each owner has (`[node, page, expires, hostCount, [uuid, count, …]]`
 * per entry), the values every sample's 4 numbers in header order. Binary doubles are exact and
 * cost a reader nothing to parse (JSON numbers cost about a quarter of a microsecond each).
 */
function encode(entries: readonly Encoded[]): Uint8Array {
  const values: number[] = [];
  const header = entries.map(([node, page, expires, host, vms]) => {
    values.push(...host);
    const counts: (string | number)[] = [];
    for (let i = 0; i < vms.length; i += 2) {
      const flatValues = vms[i + 1] as number[];
      counts.push(vms[i] as string, flatValues.length / SAMPLE_STRIDE);
      values.push(...flatValues);
    }
    return [node, page, expires, host.length / SAMPLE_STRIDE, counts];
  });
  const text = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align8(4 + text.length);
  const bytes = new ArrayBuffer(start + values.length * 8);
  const buffer = Buffer.from(bytes);
  buffer.writeUInt32LE(text.length, 0);
  text.copy(buffer, 4);
  if (LITTLE_ENDIAN) new Float64Array(bytes, start, values.length).set(values);
  else for (let i = 0; i < values.length; i++) buffer.writeDoubleLE(values[i], start + i * 8);
  // Level 1: about 9× less CPU than the default level for about a fifth more bytes; the float64
  // values barely compress at any level, and ingest CPU is what `npm start` waits on (issue 17).
  return deflateRawSync(buffer, { level: 1 });
}

/** Where the values start after the header: a multiple of 8, for a Float64Array. */
export const align8 = (n: number) => Math.ceil(n / 8) * 8;
/** A Float64Array then lays doubles out as writeDoubleLE does, in one copy. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** Epoch ms of a minute as partitions name it. */
export const minuteStart = (minute: string): number => Date.parse(`${minute}:00.000Z`);

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
