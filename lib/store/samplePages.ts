/**
 * Sample pages: one samples item per compute node and report message, holding the node's own
 * samples and those of the instances reported on it in the same message. A report then costs a
 * write per node instead of one per sample (docs/store.md, "Samples").
 *
 * A page's sort key is `<newest sample ts>#<hash of the page's content>`, so a redelivered message
 * rewrites the same items, and two messages about one node never overwrite each other's samples.
 * A page spans at most MAX_PAGE_SPAN_MS of samples (readers widen their key range by that much) and
 * carries at most MAX_PAGE_BYTES of sample JSON (DynamoDB's item limit is 400 KB).
 */

import { createHash } from 'node:crypto';
import { toWellFormed } from '../model/identifiers.js';
import type { HostSample, HypervisorReport, InstanceReport, InstanceSample } from '../model/reports.js';
import { epochSeconds } from './context.js';

export const MAX_PAGE_SPAN_MS = 60 * 60_000;
export const MAX_PAGE_BYTES = 128 * 1024;

export interface NodeRef {
  host: string;
  nodename: string;
}

/** A samples item as stored. */
export interface SamplePage {
  entity: string;
  /** `<newest sample ts>#<12 hex digits of sha-256 over the content>`. */
  ts: string;
  /** The oldest sample's ts: readers skip pages that start after their window. */
  first_ts: string;
  /** JSON array of the node's own samples, oldest first; absent when it has none in this page. */
  host_samples?: string;
  /** uuid → JSON array of that instance's samples, oldest first; absent when there are none. */
  vm_samples?: Record<string, string>;
  /** Epoch seconds: sample retention after the newest sample. */
  expires_at: number;
}

/** A page to write and the number of samples it carries. */
export interface PageWrite {
  item: SamplePage;
  samples: number;
}

export interface PageLimits {
  maxSpanMs: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: PageLimits = { maxSpanMs: MAX_PAGE_SPAN_MS, maxBytes: MAX_PAGE_BYTES };

/**
 * The partition key of a node's pages; components are URI-encoded so `/` in a name cannot collide.
 * Ingest refuses names that are not well-formed; a name stored before that check is made encodable
 * here (lone surrogates become U+FFFD), so it can never make a reader throw URIError.
 */
export function nodeEntityKey(node: NodeRef): string {
  return `host/${encodeURIComponent(toWellFormed(node.host))}/${encodeURIComponent(toWellFormed(node.nodename))}`;
}

/** One sample and whose it is: '' for the node itself, else an instance uuid. */
interface Entry {
  owner: string;
  sample: HostSample | InstanceSample;
  bytes: number;
}

/** One report's samples on a node: '' for the node itself, else an instance uuid. */
interface OwnerSamples {
  owner: string;
  samples: readonly (HostSample | InstanceSample)[];
}

/**
 * The samples a page was built from, by owner, kept while the page item lives: the window digests
 * written beside the page (windowDigest.ts) take them from here instead of parsing the page's JSON
 * back. Only pages built in this process have an entry.
 */
const builtFrom = new WeakMap<SamplePage, Map<string, readonly (HostSample | InstanceSample)[]>>();

/** The samples of `page` by owner ('' for the node): as built here, or parsed from the item. */
export function samplesByOwner(
  page: SamplePage,
): ReadonlyMap<string, readonly (HostSample | InstanceSample)[]> {
  const built = builtFrom.get(page);
  if (built) return built;
  const { host, instances } = pageContent(page as unknown as Record<string, unknown>);
  const out = new Map<string, readonly (HostSample | InstanceSample)[]>();
  if (page.host_samples !== undefined) out.set('', host);
  for (const [uuid, list] of instances) out.set(uuid, list);
  return out;
}

/** The pages of one message: its samples grouped by compute node, each group split by span and size. */
export function messagePages(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
  retentionSeconds: number,
  limits: PageLimits = DEFAULT_LIMITS,
): PageWrite[] {
  const pages: PageWrite[] = [];
  for (const [entity, groups] of byNode(hypervisors, instances)) {
    const whole = onePage(entity, groups, retentionSeconds, limits);
    if (whole) pages.push(whole);
    else pages.push(...splitPages(entity, groups, retentionSeconds, limits));
  }
  return pages;
}

/**
 * The pages messagePages gives, always built sample by sample (`onePage` is its shortcut for a
 * node whose samples fit one page); tests hold the two equal.
 */
export function pagesSampleBySample(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
  retentionSeconds: number,
  limits: PageLimits = DEFAULT_LIMITS,
): PageWrite[] {
  const pages: PageWrite[] = [];
  for (const [entity, groups] of byNode(hypervisors, instances))
    pages.push(...splitPages(entity, groups, retentionSeconds, limits));
  return pages;
}

/** Each node's reports with samples, by page partition key, in message order. */
function byNode(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Map<string, OwnerSamples[]> {
  const nodes = new Map<string, OwnerSamples[]>();
  const add = (node: NodeRef, owner: string, samples: readonly (HostSample | InstanceSample)[]) => {
    if (samples.length === 0) return;
    const key = nodeEntityKey(node);
    const list = nodes.get(key);
    if (list) list.push({ owner, samples });
    else nodes.set(key, [{ owner, samples }]);
  };
  for (const h of hypervisors) add(h, '', h.samples);
  for (const i of instances) add(i, i.uuid, i.samples);
  return nodes;
}

function splitPages(
  entity: string,
  groups: readonly OwnerSamples[],
  retentionSeconds: number,
  limits: PageLimits,
): PageWrite[] {
  return chunks(entriesOf(groups), limits).map((chunk) => ({
    item: page(entity, chunk, retentionSeconds),
    samples: chunk.length,
  }));
}

function entriesOf(groups: readonly OwnerSamples[]): Entry[] {
  const entries: Entry[] = [];
  for (const { owner, samples } of groups)
    for (const sample of samples) entries.push({ owner, sample, bytes: JSON.stringify(sample).length + 1 });
  return entries;
}

/**
 * The common case without building an entry per sample: every owner reported once, its samples
 * in time order, and all of them within one page's span and size. Then the page is the one
 * `chunks` + `page` would build (an owner's JSON is its samples as reported, and its entries'
 * bytes sum to that JSON's length - 1); otherwise undefined, and they build it.
 */
function onePage(
  entity: string,
  groups: readonly OwnerSamples[],
  retentionSeconds: number,
  limits: PageLimits,
): PageWrite | undefined {
  const byOwner = new Map<string, readonly (HostSample | InstanceSample)[]>();
  let first = '';
  let newest = '';
  let count = 0;
  for (const { owner, samples } of groups) {
    if (byOwner.has(owner)) return undefined;
    for (let i = 1; i < samples.length; i++) if (samples[i].ts < samples[i - 1].ts) return undefined;
    const head = samples[0].ts;
    const tail = samples[samples.length - 1].ts;
    if (count === 0 || head < first) first = head;
    if (tail > newest) newest = tail;
    count += samples.length;
    byOwner.set(owner, samples);
  }
  // `chunks` measures a page's span from its oldest sample to each later one.
  const start = Date.parse(first);
  for (const { samples } of groups)
    for (const s of samples) if (Date.parse(s.ts) - start > limits.maxSpanMs) return undefined;
  const json = new Map<string, string>();
  let bytes = 0;
  for (const [owner, samples] of byOwner) {
    const text = JSON.stringify(samples);
    json.set(owner, text);
    bytes += text.length - 1 + owner.length + 8;
  }
  if (bytes > limits.maxBytes) return undefined;
  const item = pageItem(entity, json, first, newest, retentionSeconds);
  builtFrom.set(item, byOwner);
  return { item, samples: count };
}

/** Splits a node's samples, in time order, into runs within the span and size limits. */
function chunks(entries: Entry[], limits: PageLimits): Entry[][] {
  const sorted = [...entries].sort((a, b) => compare(a.sample.ts, b.sample.ts) || compare(a.owner, b.owner));
  const out: Entry[][] = [];
  let current: Entry[] = [];
  let owners = new Set<string>();
  let start = 0;
  let bytes = 0;
  // An owner's first sample in a page also pays for its map key.
  const cost = (e: Entry) => e.bytes + (owners.has(e.owner) ? 0 : e.owner.length + 8);
  for (const entry of sorted) {
    const t = Date.parse(entry.sample.ts);
    if (current.length > 0 && (t - start > limits.maxSpanMs || bytes + cost(entry) > limits.maxBytes)) {
      out.push(current);
      current = [];
      owners = new Set();
      bytes = 0;
    }
    if (current.length === 0) start = t;
    bytes += cost(entry);
    owners.add(entry.owner);
    current.push(entry);
  }
  if (current.length > 0) out.push(current);
  return out;
}

function page(entity: string, entries: Entry[], retentionSeconds: number): SamplePage {
  const byOwner = new Map<string, (HostSample | InstanceSample)[]>();
  for (const { owner, sample } of entries) {
    const list = byOwner.get(owner);
    if (list) list.push(sample);
    else byOwner.set(owner, [sample]);
  }
  const json = new Map<string, string>();
  for (const [owner, list] of byOwner) json.set(owner, JSON.stringify(list));
  const item = pageItem(
    entity,
    json,
    entries[0].sample.ts,
    entries[entries.length - 1].sample.ts,
    retentionSeconds,
  );
  builtFrom.set(item, byOwner);
  return item;
}

/** The item for a page holding each owner's samples as `json` (owner '' is the node). */
function pageItem(
  entity: string,
  json: ReadonlyMap<string, string>,
  first: string,
  newest: string,
  retentionSeconds: number,
): SamplePage {
  const host_samples = json.get('');
  const vms = [...json.keys()]
    .filter((owner) => owner !== '')
    .sort(compare)
    .map((uuid) => [uuid, json.get(uuid) as string]);
  const digest = createHash('sha256')
    .update(`${entity}\n${host_samples ?? ''}\n${JSON.stringify(vms)}`)
    .digest('hex')
    .slice(0, 12);
  return {
    entity,
    ts: `${newest}#${digest}`,
    first_ts: first,
    ...(host_samples ? { host_samples } : {}),
    ...(vms.length > 0 ? { vm_samples: Object.fromEntries(vms) } : {}),
    expires_at: epochSeconds(Date.parse(newest)) + retentionSeconds,
  };
}

/** The samples a page holds, as stored (each with its ts). */
export function pageContent(item: Record<string, unknown>): {
  host: HostSample[];
  instances: Map<string, InstanceSample[]>;
} {
  const host = typeof item.host_samples === 'string' ? (JSON.parse(item.host_samples) as HostSample[]) : [];
  const instances = new Map<string, InstanceSample[]>();
  const vms = (item.vm_samples ?? {}) as Record<string, string>;
  for (const [uuid, json] of Object.entries(vms)) instances.set(uuid, JSON.parse(json) as InstanceSample[]);
  return { host, instances };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
