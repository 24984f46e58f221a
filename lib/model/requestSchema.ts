import * as z from 'zod';
import { canonicalImageProperties } from './imageMeta.js';
import type { RequestSpec } from './requestSpec.js';
import { nonNegative, novaString, parseWith } from './schema.js';

const flavor = z.object({
  name: z.string().default('unnamed'),
  vcpus: z.number().int().nonnegative(),
  memory_mb: nonNegative,
  root_gb: nonNegative.default(0),
  ephemeral_gb: nonNegative.default(0),
  swap: nonNegative.default(0),
  extra_specs: z.record(z.string(), novaString).default({}),
});

const image = z.object({
  id: z.string().nullish(),
  properties: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  disk_format: z.string().nullish(),
});

const hintValue = z.union([novaString, z.array(novaString)]).transform((v) => (Array.isArray(v) ? v : [v]));

const instanceGroup = z.object({
  name: z.string().optional(),
  uuid: z.string().optional(),
  policy: z.enum(['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity']),
  members: z.array(z.string()).default([]),
  hosts: z.array(z.string()).default([]),
  rules: z.record(z.string(), novaString).default({}),
});

const requestedDestination = z.object({
  host: z.string().nullish(),
  node: z.string().nullish(),
  // Nova's CellMapping ({uuid, name}) or its uuid alone; the engine compares uuids.
  cell: z
    .union([z.string(), z.object({ uuid: z.string(), name: z.string().nullish() })])
    .nullish()
    .transform((c) => (c == null ? c : typeof c === 'string' ? c : c.uuid)),
  aggregates: z.array(z.string()).optional(),
  forbidden_aggregates: z.array(z.string()).optional(),
  allow_cross_cell_move: z.boolean().optional(),
});

const numaCell = z.object({
  id: z.number().int().nonnegative(),
  cpuset: z.array(z.number().int().nonnegative()).default([]),
  pcpuset: z.array(z.number().int().nonnegative()).default([]),
  memory: nonNegative,
  // -1 small, -2 large, -3 any (Nova's symbolic page sizes)
  pagesize: z.union([z.number().int().positive(), z.literal(-1), z.literal(-2), z.literal(-3)]).nullish(),
  cpu_thread_policy: z.enum(['prefer', 'isolate', 'require']).nullish(),
});

const pciRequest = z.object({
  count: z.number().int().positive().default(1),
  spec: z.array(z.record(z.string(), novaString)).min(1),
  alias_name: z.string().optional(),
  numa_policy: z.enum(['required', 'preferred', 'legacy', 'socket']).nullish(),
});

/** Input shape of a request spec (REQUEST.json). */
export const requestSpecInput = z.object({
  request_id: z.string().optional(),
  flavor,
  image: image.nullish(),
  // Nullable in Nova's RequestSpec: null means no hints.
  scheduler_hints: z
    .record(z.string(), hintValue)
    .nullish()
    .transform((h) => h ?? {}),
  availability_zone: z.string().nullish(),
  instance_group: instanceGroup.nullish(),
  project_id: z.string().nullish(),
  user_id: z.string().nullish(),
  instance_uuid: z.string().nullish(),
  instance_uuids: z.array(z.string()).nullish(),
  num_instances: z.number().int().positive().default(1),
  ignore_hosts: z.array(z.string()).nullish(),
  force_hosts: z.array(z.string()).nullish(),
  force_nodes: z.array(z.string()).nullish(),
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
