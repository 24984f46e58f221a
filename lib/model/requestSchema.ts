import * as z from 'zod';
import { BOUNDS, bounded, MAX_INSTANCES_PER_REQUEST } from './bounds.js';
import { identifier } from './identifiers.js';
import { completeRequestSpec } from './requestDefaults.js';
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
  // Nova's own shapes: None, a list, or an InstancePCIRequests object ({"requests": [...]}).
  pci_requests: z
    .union([z.array(pciRequest), z.object({ requests: z.array(pciRequest) }).transform((o) => o.requests)])
    .nullish()
    .transform((r) => r ?? []),
  is_bfv: z.boolean().default(false),
  instance_metadata: z.record(z.string(), novaString).default({}),
});

export type RequestSpecInput = z.input<typeof requestSpecInput>;

export type RequestSpecOutput = z.output<typeof requestSpecInput>;

/** Validates a request spec document and fills RequestSpec's defaults. */
export function parseRequestSpec(input: unknown, source = 'request'): RequestSpec {
  return completeRequestSpec(parseWith(requestSpecInput, input, source), input, source);
}
