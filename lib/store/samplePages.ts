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
  /** The samples the item was built from, by owner ('' for the node): the window digests read these. */
  byOwner: SamplesByOwner;
}

export type SamplesByOwner = ReadonlyMap<string, readonly (HostSample | InstanceSample)[]>;

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

/** One sample, whose it is ('' for the node itself, else an instance uuid) and its JSON. */
interface Entry {
  owner: string;
  sample: HostSample | InstanceSample;
  json: string;
}

/** The pages of one message: its samples grouped by compute node, each group split by span and size. */
export function messagePages(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
  retentionSeconds: number,
  limits: PageLimits = DEFAULT_LIMITS,
): PageWrite[] {
  const pages: PageWrite[] = [];
  for (const [entity, entries] of byNode(hypervisors, instances))
    for (const chunk of chunks(entries, limits)) pages.push(page(entity, chunk, retentionSeconds));
  return pages;
}

/** Each node's samples, by page partition key, in message order. */
function byNode(
  hypervisors: readonly HypervisorReport[],
  instances: readonly InstanceReport[],
): Map<string, Entry[]> {
  const nodes = new Map<string, Entry[]>();
  const add = (node: NodeRef, owner: string, samples: readonly (HostSample | InstanceSample)[]) => {
    if (samples.length === 0) return;
    const key = nodeEntityKey(node);
    const list = nodes.get(key) ?? [];
    nodes.set(key, list);
    for (const sample of samples) list.push({ owner, sample, json: JSON.stringify(sample) });
  };
  for (const h of hypervisors) add(h, '', h.samples);
  for (const i of instances) add(i, i.uuid, i.samples);
  return nodes;
}

/** Splits a node's samples, in time order, into runs within the span and size limits. */
function chunks(entries: Entry[], limits: PageLimits): Entry[][] {
  const sorted = entries.sort((a, b) => compare(a.sample.ts, b.sample.ts) || compare(a.owner, b.owner));
  const out: Entry[][] = [];
  let current: Entry[] = [];
  let owners = new Set<string>();
  let start = 0;
  let bytes = 0;
  // A sample costs its JSON and a comma; an owner's first sample in a page also pays for its map key.
  const cost = (e: Entry) => e.json.length + 1 + (owners.has(e.owner) ? 0 : e.owner.length + 8);
  let ts = '';
  let t = 0;
  for (const entry of sorted) {
    // Sorted, a node's samples share few timestamps: parse each once.
    if (entry.sample.ts !== ts) {
      ts = entry.sample.ts;
      t = Date.parse(ts);
    }
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

/** The item for a page of `entries` (in time order); an owner's JSON is its samples' JSON as one array. */
function page(entity: string, entries: Entry[], retentionSeconds: number): PageWrite {
  const byOwner = new Map<string, Entry[]>();
  for (const entry of entries) {
    const list = byOwner.get(entry.owner) ?? [];
    byOwner.set(entry.owner, list);
    list.push(entry);
  }
  const json = (owner: string) => `[${(byOwner.get(owner) as Entry[]).map((e) => e.json).join(',')}]`;
  const host_samples = byOwner.has('') ? json('') : undefined;
  const vms = [...byOwner.keys()]
    .filter((owner) => owner !== '')
    .sort(compare)
    .map((uuid) => [uuid, json(uuid)]);
  const digest = createHash('sha256')
    .update(`${entity}\n${host_samples ?? ''}\n${JSON.stringify(vms)}`)
    .digest('hex')
    .slice(0, 12);
  const newest = entries[entries.length - 1].sample.ts;
  const item: SamplePage = {
    entity,
    ts: `${newest}#${digest}`,
    first_ts: entries[0].sample.ts,
    ...(host_samples ? { host_samples } : {}),
    ...(vms.length > 0 ? { vm_samples: Object.fromEntries(vms) } : {}),
    expires_at: epochSeconds(Date.parse(newest)) + retentionSeconds,
  };
  const samples = new Map([...byOwner].map(([owner, list]) => [owner, list.map((e) => e.sample)]));
  return { item, samples: entries.length, byOwner: samples };
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
