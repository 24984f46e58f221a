/**
 * zod schemas for the inventory calls (os-hypervisors/detail, servers/detail, os-aggregates,
 * os-server-groups) and Placement's provider calls. Fields that a microversion dropped or added are
 * optional, so one schema reads every supported version; output types are camelCase.
 */
import * as z from 'zod';
import { migrationRecordsSchema } from './schemas.js';

const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const count = z.number().nonnegative();

const link = z.object({ rel: z.string(), href: z.string() });
/** `<collection>_links`: the `next` link carries the marker of the following page. */
export const linksSchema = z.array(link).optional();

export const hypervisorSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    hypervisor_hostname: z.string(),
    state: z.string(),
    status: z.string(),
    host_ip: nullableString,
    hypervisor_type: nullableString,
    hypervisor_version: z.number().int().nullish(),
    service: z.object({ host: z.string(), disabled_reason: nullableString }),
    // Removed in 2.88: usage then comes from Placement.
    vcpus: count.optional(),
    vcpus_used: count.optional(),
    memory_mb: count.optional(),
    memory_mb_used: count.optional(),
    local_gb: count.optional(),
    local_gb_used: count.optional(),
    free_ram_mb: z.number().optional(),
    free_disk_gb: z.number().optional(),
    running_vms: count.optional(),
    // A JSON string before 2.28, an object from 2.28, gone in 2.88.
    cpu_info: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  })
  .transform((h) => ({
    id: h.id,
    host: h.service.host,
    nodename: h.hypervisor_hostname,
    state: h.state,
    status: h.status,
    disabledReason: h.service.disabled_reason,
    hostIp: h.host_ip,
    hypervisorType: h.hypervisor_type,
    hypervisorVersion: h.hypervisor_version ?? null,
    cpuInfo:
      h.cpu_info == null ? null : typeof h.cpu_info === 'string' ? h.cpu_info : JSON.stringify(h.cpu_info),
    usage:
      h.vcpus === undefined || h.memory_mb === undefined || h.local_gb === undefined
        ? null
        : {
            vcpus: h.vcpus,
            vcpusUsed: h.vcpus_used ?? 0,
            memoryMb: h.memory_mb,
            memoryMbUsed: h.memory_mb_used ?? 0,
            localGb: h.local_gb,
            localGbUsed: h.local_gb_used ?? 0,
            freeRamMb: h.free_ram_mb ?? h.memory_mb - (h.memory_mb_used ?? 0),
            freeDiskGb: h.free_disk_gb ?? h.local_gb - (h.local_gb_used ?? 0),
            runningVms: h.running_vms ?? null,
          },
  }));

export const hypervisorPageSchema = z.object({
  hypervisors: z.array(hypervisorSchema),
  hypervisors_links: linksSchema,
});
export type NovaHypervisor = z.output<typeof hypervisorSchema>;

const address = z.object({ addr: z.string() }).loose();

export const inventoryServerSchema = z
  .object({
    id: z.string(),
    name: z.string().default(''),
    status: z.string(),
    tenant_id: z.string().optional(),
    metadata: z.record(z.string(), z.string()).default({}),
    tags: z.array(z.string()).default([]),
    'OS-EXT-SRV-ATTR:host': nullableString,
    'OS-EXT-SRV-ATTR:hypervisor_hostname': nullableString,
    'OS-EXT-AZ:availability_zone': nullableString,
    // Embedded since 2.47; `original_name` is the flavor's name when the server was created.
    flavor: z.object({
      original_name: z.string(),
      vcpus: z.number().int().nonnegative(),
      ram: z.number().int().nonnegative(),
      disk: z.number().int().nonnegative(),
      ephemeral: z.number().int().nonnegative().default(0),
      swap: z.number().int().nonnegative().default(0),
    }),
    // "" when the server boots from a volume.
    image: z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish(),
    addresses: z.record(z.string(), z.array(address)).default({}),
  })
  .transform((s) => ({
    id: s.id,
    name: s.name,
    status: s.status,
    projectId: s.tenant_id ?? null,
    metadata: s.metadata,
    tags: s.tags,
    host: s['OS-EXT-SRV-ATTR:host'],
    nodename: s['OS-EXT-SRV-ATTR:hypervisor_hostname'],
    availabilityZone: s['OS-EXT-AZ:availability_zone'],
    flavor: {
      name: s.flavor.original_name,
      vcpus: s.flavor.vcpus,
      ramMb: s.flavor.ram,
      diskGb: s.flavor.disk,
      ephemeralGb: s.flavor.ephemeral,
      swapMb: s.flavor.swap,
    },
    bootFromVolume: s.image == null || s.image === '',
    addresses: Object.values(s.addresses).flatMap((list) => list.map((a) => a.addr)),
  }));

export const serverPageSchema = z.object({
  servers: z.array(inventoryServerSchema),
  servers_links: linksSchema,
});
export type NovaInventoryServer = z.output<typeof inventoryServerSchema>;

export const aggregatesSchema = z.object({
  aggregates: z.array(
    z
      .object({
        id: z.union([z.string(), z.number()]).transform(String),
        uuid: z.string().optional(),
        name: z.string(),
        availability_zone: nullableString,
        hosts: z.array(z.string()).nullish(),
        metadata: z.record(z.string(), z.string()).nullish(),
      })
      .transform((a) => ({
        id: a.id,
        uuid: a.uuid ?? null,
        name: a.name,
        availabilityZone: a.availability_zone,
        hosts: a.hosts ?? [],
        metadata: a.metadata ?? {},
      })),
  ),
});
export type NovaAggregate = z.output<typeof aggregatesSchema>['aggregates'][number];

const policy = z.enum(['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity']);

export const serverGroupsSchema = z.object({
  server_groups: z.array(
    z
      .object({
        id: z.string(),
        name: z.string(),
        // `policy` from 2.64; a one-element `policies` list before.
        policy: policy.optional(),
        policies: z.array(policy).optional(),
        members: z.array(z.string()).default([]),
      })
      .transform((g, ctx) => {
        const chosen = g.policy ?? g.policies?.[0];
        if (!chosen) {
          ctx.addIssue({ code: 'custom', message: `server group ${g.id} has no policy` });
          return z.NEVER;
        }
        return { id: g.id, name: g.name, policy: chosen, members: g.members };
      }),
  ),
});
export type NovaServerGroup = z.output<typeof serverGroupsSchema>['server_groups'][number];

const placementInventory = z.object({
  total: count,
  reserved: count.default(0),
  min_unit: count.optional(),
  max_unit: count.optional(),
  step_size: z.number().positive().optional(),
  allocation_ratio: z.number().positive().default(1),
});

export const providerInventoriesSchema = z.object({
  inventories: z.record(z.string(), placementInventory),
});
export type PlacementInventory = z.output<typeof placementInventory>;

export const providerUsagesSchema = z.object({ usages: z.record(z.string(), count) });
export const providerTraitsSchema = z.object({ traits: z.array(z.string()) });

/** A page of `GET /os-migrations`: the records plus, from 2.59, `migrations_links`. */
export const migrationPageSchema = migrationRecordsSchema.extend({ migrations_links: linksSchema });
