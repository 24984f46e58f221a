/**
 * zod schemas for the Keystone v3 and Nova response bodies Placid reads. They accept extra fields
 * (APIs add fields in later microversions) and turn Nova's wire names into camelCase domain types.
 */
import * as z from 'zod';

const endpointSchema = z.object({
  interface: z.string(),
  url: z.string(),
  // `region_id` is the v3 field; `region` is its deprecated twin still sent by most clouds.
  region_id: z.string().nullish(),
  region: z.string().nullish(),
});

const catalogEntrySchema = z.object({
  type: z.string(),
  name: z.string().optional(),
  endpoints: z.array(endpointSchema),
});

export const tokenResponseSchema = z.object({
  token: z.object({
    expires_at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not an ISO 8601 time'),
    catalog: z.array(catalogEntrySchema).default([]),
    project: z.object({ id: z.string(), name: z.string().optional() }).optional(),
  }),
});

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const serverSchema = z
  .object({
    server: z.object({
      id: z.string(),
      name: z.string().optional(),
      status: z.string(),
      'OS-EXT-SRV-ATTR:host': nullableString,
      'OS-EXT-SRV-ATTR:hypervisor_hostname': nullableString,
      'OS-EXT-AZ:availability_zone': nullableString,
      'OS-EXT-STS:task_state': nullableString,
      'OS-EXT-STS:vm_state': nullableString,
      metadata: z.record(z.string(), z.string()).optional(),
      addresses: z.record(z.string(), z.array(z.object({ addr: z.string() }))).optional(),
    }),
  })
  .transform(({ server: s }) => ({
    id: s.id,
    name: s.name ?? null,
    status: s.status,
    /** Null when the policy hides host attributes from this user (non-admin). */
    host: s['OS-EXT-SRV-ATTR:host'],
    hypervisorHostname: s['OS-EXT-SRV-ATTR:hypervisor_hostname'],
    availabilityZone: s['OS-EXT-AZ:availability_zone'],
    /** e.g. `migrating` while a live migration runs; null when idle. */
    taskState: s['OS-EXT-STS:task_state'],
    vmState: s['OS-EXT-STS:vm_state'],
    metadata: s.metadata ?? {},
    /** Every fixed and floating address on every network: what Nova (not the tenant) assigned. */
    addresses: Object.values(s.addresses ?? {}).flatMap((list) => list.map((a) => a.addr)),
  }));

export type NovaServer = z.output<typeof serverSchema>;

/** A Nova server as the drain-target lookups (Kubernetes nodes, the Consul catalog) see it: its uuid and the addresses Nova assigned it. */
export interface ServerIdentity {
  id: string;
  addresses: readonly string[];
}

// Byte counters are null until the hypervisor reports progress.
const bytes = z
  .number()
  .nullish()
  .transform((v) => v ?? null);

const serverMigrationSchema = z
  .object({
    id: z.number(),
    uuid: z.string().optional(),
    status: z.string(),
    source_compute: nullableString,
    dest_compute: nullableString,
    dest_node: nullableString,
    memory_total_bytes: bytes,
    memory_processed_bytes: bytes,
    memory_remaining_bytes: bytes,
    disk_total_bytes: bytes,
    disk_processed_bytes: bytes,
    disk_remaining_bytes: bytes,
    created_at: z.string().optional(),
    updated_at: nullableString,
  })
  .transform((m) => ({
    id: m.id,
    uuid: m.uuid ?? null,
    status: m.status,
    sourceCompute: m.source_compute,
    destCompute: m.dest_compute,
    destNode: m.dest_node,
    memoryTotalBytes: m.memory_total_bytes,
    memoryProcessedBytes: m.memory_processed_bytes,
    memoryRemainingBytes: m.memory_remaining_bytes,
    diskTotalBytes: m.disk_total_bytes,
    diskProcessedBytes: m.disk_processed_bytes,
    diskRemainingBytes: m.disk_remaining_bytes,
    createdAt: m.created_at ?? null,
    updatedAt: m.updated_at,
  }));

export const serverMigrationsSchema = z.object({ migrations: z.array(serverMigrationSchema) });
export type ServerMigration = z.output<typeof serverMigrationSchema>;

const migrationRecordSchema = z
  .object({
    id: z.number(),
    uuid: z.string().optional(),
    instance_uuid: z.string(),
    status: z.string(),
    migration_type: z.string().optional(),
    source_compute: nullableString,
    dest_compute: nullableString,
    created_at: z.string().optional(),
    updated_at: nullableString,
  })
  .transform((m) => ({
    id: m.id,
    uuid: m.uuid ?? null,
    instanceUuid: m.instance_uuid,
    status: m.status,
    migrationType: m.migration_type ?? null,
    sourceCompute: m.source_compute,
    destCompute: m.dest_compute,
    createdAt: m.created_at ?? null,
    updatedAt: m.updated_at,
  }));

export const migrationRecordsSchema = z.object({ migrations: z.array(migrationRecordSchema) });
/** A row of `GET /os-migrations`: every migration, finished ones included. */
export type NovaMigrationRecord = z.output<typeof migrationRecordSchema>;

export const metadataSchema = z.object({ metadata: z.record(z.string(), z.string()) });

/**
 * Error bodies: Keystone sends `{error: {message}}`, Nova `{<faultName>: {code, message}}`
 * (e.g. `conflictingRequest`). Either way the first object's `message` is the explanation.
 */
export const errorBodySchema = z.record(z.string(), z.object({ message: z.string() }).loose());
