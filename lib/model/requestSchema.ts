import * as z from 'zod';
import { BOUNDS, bounded, MAX_INSTANCES_PER_REQUEST } from './bounds.js';
import { ValidationError } from './errors.js';
import { identifier } from './identifiers.js';
import { canonicalImageProperties } from './imageMeta.js';
import { duplicateIssues } from './reportChecks.js';
import type { RequestSpec } from './requestSpec.js';
import { novaString, parseWith } from './schema.js';

/** Claim ids and the request id: never empty. */
const id = identifier();
/** Other names: an empty one is legal (Nova compares it and matches nothing). */
const name = identifier({ allowEmpty: true });

const flavor = z.object({
  name: name.default('unnamed'),
  vcpus: bounded('vcpus').int(),
  memory_mb: bounded('ram_mb'),
  root_gb: bounded('disk_gb').default(0),
  ephemeral_gb: bounded('disk_gb').default(0),
  swap: bounded('swap_mb').default(0),
  extra_specs: z.record(z.string(), novaString).default({}),
});

const image = z.object({
  id: name.nullish(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  disk_format: z.string().nullish(),
});

const hintValue = z.union([novaString, z.array(novaString)]).transform((v) => (Array.isArray(v) ? v : [v]));

const instanceGroup = z.object({
  name: identifier({ allowEmpty: true }).optional(),
  uuid: name.optional(),
  policy: z.enum(['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity']),
  members: z.array(name).default([]),
  hosts: z.array(name).default([]),
  rules: z.record(z.string(), novaString).default({}),
});

const requestedDestination = z.object({
  host: name.nullish(),
  node: name.nullish(),
  // Nova's CellMapping ({uuid, name}) or its uuid alone; the engine compares uuids.
  cell: z
    .union([name, z.object({ uuid: name, name: name.nullish() })])
    .nullish()
    .transform((c) => (c == null ? c : typeof c === 'string' ? c : c.uuid)),
  aggregates: z.array(z.string()).optional(),
  forbidden_aggregates: z.array(z.string()).optional(),
  allow_cross_cell_move: z.boolean().optional(),
});

const numaCell = z.object({
  id: bounded('cpu_id'),
  cpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default([]),
  pcpuset: z.array(bounded('cpu_id')).max(BOUNDS.cpu_id.max).default([]),
  memory: bounded('ram_mb'),
  // -1 small, -2 large, -3 any (Nova's symbolic page sizes)
  pagesize: z.union([bounded('page_size_kb'), z.literal(-1), z.literal(-2), z.literal(-3)]).nullish(),
  cpu_thread_policy: z.enum(['prefer', 'isolate', 'require']).nullish(),
});

const pciRequest = z.object({
  count: bounded('pci_devices', { positive: true }).default(1),
  spec: z.array(z.record(z.string(), novaString)).min(1),
  alias_name: z.string().optional(),
  numa_policy: z.enum(['required', 'preferred', 'legacy', 'socket']).nullish(),
});

/** Input shape of a request spec (REQUEST.json). */
export const requestSpecInput = z.object({
  request_id: id.optional(),
  flavor,
  image: image.nullish(),
  // Nullable in Nova's RequestSpec: null means no hints.
  scheduler_hints: z
    .record(z.string(), hintValue)
    .nullish()
    .transform((h) => h ?? {}),
  availability_zone: name.nullish(),
  instance_group: instanceGroup.nullish(),
  project_id: name.nullish(),
  user_id: name.nullish(),
  instance_uuid: id.nullish(),
  /** One uuid per instance; each is the instance's claim id, so they must be distinct. */
  instance_uuids: z
    .array(id)
    .min(1, 'must list at least one uuid; omit it to place num_instances instances')
    .max(MAX_INSTANCES_PER_REQUEST, {
      error: (i) =>
        `lists ${(i.input as unknown[]).length} uuids; one request may place at most ${MAX_INSTANCES_PER_REQUEST} instances`,
    })
    .nullish(),
  num_instances: bounded('num_instances').default(1),
  ignore_hosts: z.array(name).nullish(),
  force_hosts: z.array(name).nullish(),
  force_nodes: z.array(name).nullish(),
  requested_destination: requestedDestination.nullish(),
  numa_topology: z.object({ cells: z.array(numaCell).min(1) }).nullish(),
  pci_requests: z.array(pciRequest).default([]),
  is_bfv: z.boolean().default(false),
  instance_metadata: z.record(z.string(), novaString).default({}),
});

export type RequestSpecInput = z.input<typeof requestSpecInput>;

let requestCounter = 0;

/** Validates a request spec document and fills RequestSpec's defaults. */
export function parseRequestSpec(input: unknown, source = 'request'): RequestSpec {
  const r = parseWith(requestSpecInput, input, source);
  const uuids = r.instance_uuids ?? null;
  checkInstanceUuids(input, uuids, r.num_instances, source);
  return {
    request_id: r.request_id ?? `req-${++requestCounter}`,
    flavor: r.flavor,
    image: r.image
      ? {
          id: r.image.id ?? null,
          properties: canonicalImageProperties(r.image.properties, source),
          disk_format: r.image.disk_format ?? null,
        }
      : null,
    scheduler_hints: r.scheduler_hints,
    availability_zone: r.availability_zone ?? null,
    instance_group: r.instance_group ? { ...r.instance_group } : null,
    project_id: r.project_id ?? null,
    user_id: r.user_id ?? null,
    instance_uuid: r.instance_uuid ?? uuids?.[0] ?? null,
    instance_uuids: uuids,
    num_instances: uuids ? uuids.length : r.num_instances,
    ignore_hosts: r.ignore_hosts ?? [],
    force_hosts: r.force_hosts ?? [],
    force_nodes: r.force_nodes ?? [],
    requested_destination: r.requested_destination ?? null,
    numa_topology: r.numa_topology ?? null,
    pci_requests: r.pci_requests,
    is_bfv: r.is_bfv,
    instance_metadata: r.instance_metadata,
  };
}

/**
 * Each instance uuid is a claim id: a repeated uuid would place several instances under one claim
 * and undercount the host. A num_instances given beside the uuids must agree with their count
 * (Nova takes the uuids' count; a disagreement is a caller's mistake worth naming).
 */
function checkInstanceUuids(input: unknown, uuids: string[] | null, numInstances: number, source: string) {
  if (!uuids) return;
  const issues = duplicateIssues(
    uuids,
    (u) => u,
    (i) => `instance_uuids[${i}]`,
    (u) => `instance uuid ${u}`,
  );
  const explicit = (input as { num_instances?: unknown }).num_instances !== undefined;
  if (explicit && numInstances !== uuids.length) {
    issues.push({
      path: 'num_instances',
      message: `is ${numInstances} but instance_uuids lists ${uuids.length}; send one or make them agree`,
    });
  }
  if (issues.length > 0) throw new ValidationError(source, issues);
}
