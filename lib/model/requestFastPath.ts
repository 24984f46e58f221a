/**
 * Request specs of the common shape (a flavor, an image, hints, a zone, plain lists), validated by
 * hand without zod, so `placid schedule` need not load the schema library at all.
 *
 * The contract, as for hosts (hostFastPath.ts): `fastRequestSpec(x, source)` returns what
 * `parseRequestSpec(x, source)` returns, or undefined when zod must decide (server groups, NUMA,
 * PCI, destinations, instance uuid lists, unknown keys, or any value zod could refuse); zod then
 * words the problem. A property test holds the two equal (test/model/requestFastPath.test.ts).
 */
import { BOUNDS } from './boundsTable.js';
import {
  defaulted,
  isBoolean,
  isId,
  isName,
  isPlainObject,
  isString,
  knownKeys,
  MISS,
  type Miss,
  names,
  novaStrings,
  nullish,
  optional,
  recordKeys,
  whole,
  within,
} from './fastChecks.js';
import { pyStr } from './pyStr.js';
import { completeRequestSpec } from './requestDefaults.js';
import type { RequestSpecOutput } from './requestSchema.js';
import type { Flavor, RequestSpec } from './requestSpec.js';

/** The request spec parseRequestSpec would give, or undefined when zod must decide. */
export function fastRequestSpec(x: unknown, source = 'request'): RequestSpec | undefined {
  const parsed = parsedRequest(x);
  // The same completion as the schema's: defaults, image properties, instance uuid checks.
  return parsed === undefined ? undefined : completeRequestSpec(parsed, x, source);
}

/** Top-level keys this path reads; z.object drops others, so a request with one goes to zod. */
export const FAST_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'request_id',
  'flavor',
  'image',
  'scheduler_hints',
  'availability_zone',
  'instance_group',
  'project_id',
  'user_id',
  'instance_uuid',
  'instance_uuids',
  'num_instances',
  'ignore_hosts',
  'force_hosts',
  'force_nodes',
  'requested_destination',
  'numa_topology',
  'pci_requests',
  'is_bfv',
  'instance_metadata',
]);

function parsedRequest(x: unknown): RequestSpecOutput | undefined {
  if (!isPlainObject(x) || !knownKeys(x, FAST_REQUEST_FIELDS)) return undefined;
  // Shapes left to zod: server groups, destinations, NUMA, PCI and uuid lists.
  if (x.instance_group != null || x.requested_destination != null || x.numa_topology != null)
    return undefined;
  if (x.instance_uuids != null) return undefined;
  if (x.pci_requests !== undefined && !(Array.isArray(x.pci_requests) && x.pci_requests.length === 0))
    return undefined;
  if (!optional(x.request_id, isId) || !nullish(x.instance_uuid, isId)) return undefined;
  if (!nullish(x.availability_zone, isName) || !nullish(x.project_id, isName) || !nullish(x.user_id, isName))
    return undefined;
  if (!optional(x.is_bfv, isBoolean)) return undefined;
  const numInstances = defaulted(x.num_instances, BOUNDS.num_instances, 1);
  const flavor = flavorOf(x.flavor);
  const image = x.image == null ? x.image : imageOf(x.image);
  const hints = x.scheduler_hints == null ? {} : hintsOf(x.scheduler_hints);
  const metadata = x.instance_metadata === undefined ? {} : novaStrings(x.instance_metadata);
  const ignore = x.ignore_hosts == null ? x.ignore_hosts : names(x.ignore_hosts);
  const force = x.force_hosts == null ? x.force_hosts : names(x.force_hosts);
  const nodes = x.force_nodes == null ? x.force_nodes : names(x.force_nodes);
  if (
    numInstances === MISS ||
    flavor === MISS ||
    image === MISS ||
    hints === MISS ||
    metadata === MISS ||
    ignore === MISS ||
    force === MISS ||
    nodes === MISS
  )
    return undefined;
  return {
    request_id: x.request_id as string | undefined,
    flavor,
    image,
    scheduler_hints: hints,
    availability_zone: x.availability_zone as string | null | undefined,
    instance_group: x.instance_group as null | undefined,
    project_id: x.project_id as string | null | undefined,
    user_id: x.user_id as string | null | undefined,
    instance_uuid: x.instance_uuid as string | null | undefined,
    instance_uuids: x.instance_uuids as null | undefined,
    num_instances: numInstances,
    ignore_hosts: ignore,
    force_hosts: force,
    force_nodes: nodes,
    requested_destination: x.requested_destination as null | undefined,
    numa_topology: x.numa_topology as null | undefined,
    pci_requests: [],
    is_bfv: (x.is_bfv as boolean | undefined) ?? false,
    instance_metadata: metadata,
  } as RequestSpecOutput;
}

const FLAVOR_KEYS = new Set(['name', 'vcpus', 'memory_mb', 'root_gb', 'ephemeral_gb', 'swap', 'extra_specs']);

/** `flavor`: every key set, in the schema's order (its defaults fill the missing ones). */
function flavorOf(v: unknown): Flavor | Miss {
  if (!isPlainObject(v) || !knownKeys(v, FLAVOR_KEYS)) return MISS;
  if (!optional(v.name, isName)) return MISS;
  if (!whole(v.vcpus, BOUNDS.vcpus)) return MISS;
  if (!within(v.memory_mb, BOUNDS.ram_mb)) return MISS;
  const root = defaulted(v.root_gb, BOUNDS.disk_gb);
  const ephemeral = defaulted(v.ephemeral_gb, BOUNDS.disk_gb);
  const swap = defaulted(v.swap, BOUNDS.swap_mb);
  const extraSpecs = v.extra_specs === undefined ? {} : novaStrings(v.extra_specs);
  if (root === MISS || ephemeral === MISS || swap === MISS || extraSpecs === MISS) return MISS;
  return {
    name: (v.name as string | undefined) ?? 'unnamed',
    vcpus: v.vcpus as number,
    memory_mb: v.memory_mb as number,
    root_gb: root,
    ephemeral_gb: ephemeral,
    swap,
    extra_specs: extraSpecs,
  };
}

const IMAGE_KEYS = new Set(['id', 'properties', 'disk_format']);

type ImageOutput = NonNullable<RequestSpecOutput['image']>;

/** `image`: raw property values kept (completeRequestSpec canonicalises them as Nova does). */
function imageOf(v: unknown): ImageOutput | Miss {
  if (!isPlainObject(v) || !knownKeys(v, IMAGE_KEYS)) return MISS;
  if (!nullish(v.id, isName) || !nullish(v.disk_format, isString)) return MISS;
  const properties = v.properties === undefined ? {} : scalars(v.properties);
  if (properties === MISS) return MISS;
  const out: ImageOutput = {} as ImageOutput;
  // z.object's key order: the shape's, for the keys given (properties always, by its default).
  if (v.id !== undefined) out.id = v.id as string | null;
  out.properties = properties;
  if (v.disk_format !== undefined) out.disk_format = v.disk_format as string | null;
  return out;
}

/** `z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))`: values as given. */
function scalars(v: unknown): Record<string, string | number | boolean> | Miss {
  const keys = recordKeys(v);
  if (keys === MISS) return MISS;
  const src = v as Record<string, unknown>;
  const out: Record<string, string | number | boolean> = {};
  for (const k of keys) {
    const value = src[k];
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )
      out[k] = value;
    else return MISS;
  }
  return out;
}

/** `scheduler_hints`: each value a Nova string or a list of them, always a list after parsing. */
function hintsOf(v: unknown): Record<string, string[]> | Miss {
  const keys = recordKeys(v);
  if (keys === MISS) return MISS;
  const src = v as Record<string, unknown>;
  const out: Record<string, string[]> = {};
  for (const k of keys) {
    const value = src[k];
    if (Array.isArray(value)) {
      const list: string[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = novaScalar(value[i]);
        if (item === MISS) return MISS;
        list[i] = item;
      }
      out[k] = list;
    } else {
      const item = novaScalar(value);
      if (item === MISS) return MISS;
      out[k] = [item];
    }
  }
  return out;
}

/** `novaString`: a string, or a finite number or boolean as Python's str(). */
function novaScalar(v: unknown): string | Miss {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return pyStr(v);
  return MISS;
}
