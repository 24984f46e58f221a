/**
 * Zod validators for the reports that agents send (schema version 1). Static checks only: ranges,
 * types, formats and caps. Checks that need the whole message or the clock (duplicates, skew) live
 * in reportChecks.ts, so these schemas stay reusable for the JSON Schema export.
 */
import * as z from 'zod';
import { bounded } from './bounds.js';
import { hostStateInput } from './hostSchema.js';
import { identifier } from './identifiers.js';

export const REPORT_SCHEMA_VERSION = 1;
/** SQS rejects bodies above 256 KiB, so nothing larger can arrive through the queue anyway. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
/** An hour of 5-second samples; agents send far fewer per report. */
export const MAX_SAMPLES_PER_REPORT = 720;

/** ISO-8601 with a zone (Z or ±hh:mm); normalised to `toISOString()` so stored strings sort by time. */
export const isoTimestamp = z.iso
  .datetime({ offset: true, error: 'must be an ISO-8601 timestamp with a zone, e.g. 2026-12-01T12:00:00Z' })
  .transform((v) => new Date(v).toISOString());

const name = identifier();
/** Optional labels: may be empty, but are still one line of well-formed text. */
const label = identifier({ allowEmpty: true });

/** A 0..100 percentage; the message names the value so 140 % steal is obvious in the DLQ. */
const percent = bounded('percent');
const load = bounded('load');

const samples = <T extends z.ZodType>(sample: T) =>
  z
    .array(sample)
    .max(MAX_SAMPLES_PER_REPORT, {
      error: (i) =>
        `has ${(i.input as unknown[]).length} samples; at most ${MAX_SAMPLES_PER_REPORT} per report`,
    })
    .default([]);

/**
 * A stretch of time a collector has no usable samples for, and why. Optional and additive (schema
 * version 1 still): agents that sample continuously omit it; `placid collect` marks what Prometheus
 * could not tell it instead of inventing values.
 */
export const dataGapInput = z
  .object({
    from: isoTimestamp,
    to: isoTimestamp,
    reason: z
      .enum(['no_data', 'counter_reset', 'invalid_value', 'source_error'])
      .describe('no_data: no series; counter_reset: a counter went back; source_error: the query failed'),
    /** The sample fields that are missing, e.g. `steal_percent`. */
    metrics: z.array(z.string().min(1).max(64)).max(16).default([]),
  })
  .refine((g) => g.from <= g.to, { path: ['to'], message: 'must not be before from' });

const gaps = z
  .array(dataGapInput)
  .max(MAX_SAMPLES_PER_REPORT, { error: `has more than ${MAX_SAMPLES_PER_REPORT} gaps` })
  .optional();

export const hostSampleInput = z.object({
  ts: isoTimestamp,
  steal_percent: percent.describe(
    "Share of its VMs' CPU demand the host did not serve, in percent: stolen vCPU time / (stolen + used vCPU time), " +
      'summed over its VMs (libvirt: vCPU delay / (delay + vCPU time)); the share every VM loses under proportional ' +
      "share. Not a mean of the VMs' guest steal, which reads low when VMs are partly idle: send no host samples " +
      'rather than another quantity. Readers decide from the VMs when their samples cover the host',
  ),
  cpu_percent: percent,
  load5: load,
  /** Optional: not every agent can see the migration network. */
  migration_net_mbps: bounded('network_mbps').optional(),
});

export const instanceSampleInput = z.object({
  ts: isoTimestamp,
  steal_percent: percent,
  load5: load,
  cpu_percent: percent,
});

/** The engine's host-state fields plus what only a live report has: its time, zone and samples. */
export const hypervisorReportInput = hostStateInput.extend({
  host: name,
  nodename: name.optional(),
  availability_zone: name,
  reported_at: isoTimestamp.describe('When the agent took this report; a newer report replaces an older one'),
  samples: samples(hostSampleInput),
  gaps,
});

const flavorInput = z.object({
  name,
  vcpus: bounded('vcpus').int(),
  memory_mb: bounded('ram_mb').int(),
  root_gb: bounded('disk_gb').int(),
  ephemeral_gb: bounded('disk_gb').int().default(0),
  swap: bounded('swap_mb').int().default(0),
});

/** The known instance fields; reports may carry more, which are kept (see instanceReportInput). */
export const instanceReportFields = z.object({
  uuid: name,
  /** The display name may be empty, but is still one line of well-formed text. */
  name: identifier({ allowEmpty: true }),
  host: name,
  /** Defaults to `host`, as for host states (libvirt reports one node per host). */
  nodename: name.optional(),
  availability_zone: name,
  /** From server metadata or tags; null when the instance has none. */
  role: label.nullish().default(null),
  flavor: flavorInput,
  /** True when the disk lives on shared storage, so a live migration copies no disk. */
  shared_storage: z.boolean().default(false).describe('True when the disk needs no copy to live-migrate'),
  server_group: z
    .object({
      name: identifier({ allowEmpty: true }),
      policy: z.enum(['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity']),
    })
    .nullish()
    .default(null),
  kubernetes_node: label.nullish().default(null),
  // Optional without a default: reports and stored states from before the field stay valid as they are.
  kubernetes_cluster: label
    .nullish()
    .describe(
      "Cluster of kubernetes_node, as the drivers' configuration names it; null: the default cluster",
    ),
  consul: z.object({ node: label, address: label }).nullish().default(null),
  last_migrated_at: isoTimestamp.nullish().default(null),
  reported_at: isoTimestamp.describe('When the agent took this report; a newer report replaces an older one'),
  samples: samples(instanceSampleInput),
  gaps,
});

export const instanceReportInput = instanceReportFields.loose();

/** Checked before the rest so an unknown version gets one clear error, not a cascade. */
export const schemaVersionInput = z.literal(REPORT_SCHEMA_VERSION, {
  error: (i) =>
    i.input === undefined
      ? 'is required'
      : `unsupported schema_version ${JSON.stringify(i.input)}; this Placid reads ${REPORT_SCHEMA_VERSION}`,
});

export const reportMessageInput = z
  .object({
    schema_version: schemaVersionInput,
    hypervisors: z.array(hypervisorReportInput).default([]),
    instances: z.array(instanceReportInput).default([]),
  })
  .meta({
    title: 'Placid report message',
    description: 'One SQS message from a Placid agent: hypervisor and instance reports (schema version 1).',
  });
