/**
 * Report messages of the common shape, validated by hand in one pass, without zod.
 *
 * Why: zod walked every sample of every report with closures and copies; in `npm start` that was
 * most of report parsing and a tenth of the main thread (issue 17).
 *
 * The contract (the same as hostFastPath.ts): `fastReportMessage(doc)` returns exactly what
 * `reportMessageInput.parse(doc)` returns, or undefined. Undefined means "zod decides" (gaps, an
 * unknown key where z.object would drop it, any value zod could refuse), so error messages cannot
 * drift. Timestamps go through zod's own isoTimestamp, once per distinct string: a message repeats
 * the same few sample times across all its reports. A property test holds the two paths equal
 * (test/model/reportFastPath.test.ts).
 */
import { BOUNDS } from './boundsTable.js';
import {
  isBoolean,
  isId,
  isName,
  isPlainObject,
  knownKeys,
  MISS,
  type Miss,
  whole,
  within,
} from './fastChecks.js';
import { fastHostState, HostLayout } from './hostFastPath.js';
import type { HostState } from './hostState.js';
import { isoTimestamp, MAX_SAMPLES_PER_REPORT, REPORT_SCHEMA_VERSION } from './reportSchema.js';

/** What reportMessageInput gives for one hypervisor, split as toHypervisorReport splits it. */
export interface FastHypervisor {
  state: HostState;
  availability_zone: string;
  reported_at: string;
  samples: Record<string, unknown>[];
}

export interface FastReportMessage {
  hypervisors: FastHypervisor[];
  instances: Record<string, unknown>[];
}

/** The message as zod would give it (hypervisors already as host states), or undefined. */
export function fastReportMessage(doc: unknown): FastReportMessage | undefined {
  if (!isPlainObject(doc) || !knownKeys(doc, MESSAGE_KEYS)) return undefined;
  if (doc.schema_version !== REPORT_SCHEMA_VERSION) return undefined;
  const times = new Timestamps();
  // `.default([])` fills only an absent list; null goes to zod, which refuses it.
  const rawHypervisors = doc.hypervisors === undefined ? [] : doc.hypervisors;
  const rawInstances = doc.instances === undefined ? [] : doc.instances;
  if (!Array.isArray(rawHypervisors) || !Array.isArray(rawInstances)) return undefined;
  const layout = new HostLayout();
  const hypervisors: FastHypervisor[] = new Array(rawHypervisors.length);
  for (let i = 0; i < rawHypervisors.length; i++) {
    const h = hypervisor(rawHypervisors[i], layout, times);
    if (h === undefined) return undefined;
    hypervisors[i] = h;
  }
  const instances: Record<string, unknown>[] = new Array(rawInstances.length);
  for (let i = 0; i < rawInstances.length; i++) {
    const inst = instance(rawInstances[i], times);
    if (inst === MISS) return undefined;
    instances[i] = inst;
  }
  return { hypervisors, instances };
}

const MESSAGE_KEYS = new Set(['schema_version', 'hypervisors', 'instances']);

/** zod's isoTimestamp, remembered per string for one message (it is a pure function). */
class Timestamps {
  private readonly seen = new Map<string, string | Miss>();

  canonical(v: unknown): string | Miss {
    if (typeof v !== 'string') return MISS;
    let out = this.seen.get(v);
    if (out === undefined) {
      const parsed = isoTimestamp.safeParse(v);
      out = parsed.success ? parsed.data : MISS;
      this.seen.set(v, out);
    }
    return out;
  }
}

// ---- hypervisors -------------------------------------------------------------------------------

/** Keys the report adds to the host state; the rest is the host state (hostFastPath.ts). */
const REPORT_ONLY = new Set(['reported_at', 'samples', 'gaps']);

function hypervisor(x: unknown, layout: HostLayout, times: Timestamps): FastHypervisor | undefined {
  if (!isPlainObject(x)) return undefined;
  // The report's own rules where they are stricter than a host file's: host and zone required.
  if (!isId(x.host) || !isId(x.availability_zone) || x.gaps !== undefined) return undefined;
  if (x.nodename !== undefined && !isId(x.nodename)) return undefined;
  const reported_at = times.canonical(x.reported_at);
  if (reported_at === MISS) return undefined;
  const samples = sampleList(x.samples, times, hostSample);
  if (samples === MISS) return undefined;
  const hostFields: Record<string, unknown> = {};
  for (const key in x) if (!REPORT_ONLY.has(key)) hostFields[key] = x[key];
  const state = fastHostState(hostFields, layout);
  if (state === undefined) return undefined;
  return { state, availability_zone: x.availability_zone, reported_at, samples };
}

/** `samples(...)`: at most MAX_SAMPLES_PER_REPORT, an empty list when absent. */
function sampleList(
  v: unknown,
  times: Timestamps,
  sample: (s: unknown, times: Timestamps) => Record<string, unknown> | Miss,
): Record<string, unknown>[] | Miss {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_SAMPLES_PER_REPORT) return MISS;
  const out: Record<string, unknown>[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const s = sample(v[i], times);
    if (s === MISS) return MISS;
    out[i] = s;
  }
  return out;
}

const HOST_SAMPLE_KEYS = new Set(['ts', 'steal_percent', 'cpu_percent', 'load5', 'migration_net_mbps']);

/** hostSampleInput, keys in its shape's order. */
function hostSample(s: unknown, times: Timestamps): Record<string, unknown> | Miss {
  if (!isPlainObject(s) || !knownKeys(s, HOST_SAMPLE_KEYS)) return MISS;
  const ts = times.canonical(s.ts);
  if (ts === MISS) return MISS;
  const { steal_percent, cpu_percent, load5, migration_net_mbps } = s;
  if (!within(steal_percent, BOUNDS.percent) || !within(cpu_percent, BOUNDS.percent)) return MISS;
  if (!within(load5, BOUNDS.load)) return MISS;
  if (migration_net_mbps === undefined) return { ts, steal_percent, cpu_percent, load5 };
  if (!within(migration_net_mbps, BOUNDS.network_mbps)) return MISS;
  return { ts, steal_percent, cpu_percent, load5, migration_net_mbps };
}

const INSTANCE_SAMPLE_KEYS = new Set(['ts', 'steal_percent', 'load5', 'cpu_percent']);

/** instanceSampleInput, keys in its shape's order. */
function instanceSample(s: unknown, times: Timestamps): Record<string, unknown> | Miss {
  if (!isPlainObject(s) || !knownKeys(s, INSTANCE_SAMPLE_KEYS)) return MISS;
  const ts = times.canonical(s.ts);
  if (ts === MISS) return MISS;
  const { steal_percent, load5, cpu_percent } = s;
  if (!within(steal_percent, BOUNDS.percent) || !within(load5, BOUNDS.load)) return MISS;
  if (!within(cpu_percent, BOUNDS.percent)) return MISS;
  return { ts, steal_percent, load5, cpu_percent };
}

// ---- instances ---------------------------------------------------------------------------------

/** instanceReportFields' keys in shape order; others pass through after them (.loose()). */
const INSTANCE_KEYS = [
  'uuid',
  'name',
  'host',
  'nodename',
  'availability_zone',
  'role',
  'flavor',
  'shared_storage',
  'server_group',
  'kubernetes_node',
  'kubernetes_cluster',
  'consul',
  'last_migrated_at',
  'reported_at',
  'samples',
  'gaps',
] as const;
const INSTANCE_KEY_SET: ReadonlySet<string> = new Set(INSTANCE_KEYS);

function instance(x: unknown, times: Timestamps): Record<string, unknown> | Miss {
  if (!isPlainObject(x)) return MISS;
  for (const key in x) {
    if (x[key] === undefined || key === '__proto__' || key === 'constructor') return MISS;
  }
  if (!isId(x.uuid) || !isName(x.name) || !isId(x.host) || !isId(x.availability_zone)) return MISS;
  if (x.nodename !== undefined && !isId(x.nodename)) return MISS;
  if (x.gaps !== undefined) return MISS;
  if (!nullishLabel(x.role) || !nullishLabel(x.kubernetes_node) || !nullishLabel(x.kubernetes_cluster))
    return MISS;
  if (x.shared_storage !== undefined && !isBoolean(x.shared_storage)) return MISS;
  const flavor = flavorOf(x.flavor);
  const server_group = serverGroupOf(x.server_group);
  const consul = consulOf(x.consul);
  if (flavor === MISS || server_group === MISS || consul === MISS) return MISS;
  let last_migrated_at: string | null = null;
  if (x.last_migrated_at != null) {
    const t = times.canonical(x.last_migrated_at);
    if (t === MISS) return MISS;
    last_migrated_at = t;
  }
  const reported_at = times.canonical(x.reported_at);
  if (reported_at === MISS) return MISS;
  const samples = sampleList(x.samples, times, instanceSample);
  if (samples === MISS) return MISS;

  const out: Record<string, unknown> = { uuid: x.uuid, name: x.name, host: x.host };
  if (x.nodename !== undefined) out.nodename = x.nodename;
  out.availability_zone = x.availability_zone;
  out.role = x.role ?? null;
  out.flavor = flavor;
  out.shared_storage = x.shared_storage ?? false;
  out.server_group = server_group;
  out.kubernetes_node = x.kubernetes_node ?? null;
  if (x.kubernetes_cluster !== undefined) out.kubernetes_cluster = x.kubernetes_cluster;
  out.consul = consul;
  out.last_migrated_at = last_migrated_at;
  out.reported_at = reported_at;
  out.samples = samples;
  for (const key in x) if (!INSTANCE_KEY_SET.has(key)) out[key] = x[key];
  return out;
}

function nullishLabel(v: unknown): boolean {
  return v == null || isName(v);
}

const FLAVOR_KEYS = new Set(['name', 'vcpus', 'memory_mb', 'root_gb', 'ephemeral_gb', 'swap']);

function flavorOf(v: unknown): Record<string, unknown> | Miss {
  if (!isPlainObject(v) || !knownKeys(v, FLAVOR_KEYS) || !isId(v.name)) return MISS;
  if (!whole(v.vcpus, BOUNDS.vcpus) || !whole(v.memory_mb, BOUNDS.ram_mb)) return MISS;
  if (!whole(v.root_gb, BOUNDS.disk_gb)) return MISS;
  // `.default(0)` fills only an absent value; zod refuses null.
  const ephemeral_gb = v.ephemeral_gb === undefined ? 0 : v.ephemeral_gb;
  const swap = v.swap === undefined ? 0 : v.swap;
  if (!whole(ephemeral_gb, BOUNDS.disk_gb) || !whole(swap, BOUNDS.swap_mb)) return MISS;
  return { name: v.name, vcpus: v.vcpus, memory_mb: v.memory_mb, root_gb: v.root_gb, ephemeral_gb, swap };
}

const GROUP_KEYS = new Set(['name', 'policy']);
const POLICIES = new Set(['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity']);

function serverGroupOf(v: unknown): Record<string, unknown> | null | Miss {
  if (v == null) return null;
  if (!isPlainObject(v) || !knownKeys(v, GROUP_KEYS) || !isName(v.name)) return MISS;
  if (typeof v.policy !== 'string' || !POLICIES.has(v.policy)) return MISS;
  return { name: v.name, policy: v.policy };
}

const CONSUL_KEYS = new Set(['node', 'address']);

function consulOf(v: unknown): Record<string, unknown> | null | Miss {
  if (v == null) return null;
  if (!isPlainObject(v) || !knownKeys(v, CONSUL_KEYS) || !isName(v.node) || !isName(v.address)) return MISS;
  return { node: v.node, address: v.address };
}
