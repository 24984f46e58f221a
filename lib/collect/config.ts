/**
 * The collector's configuration (`placid collect --config FILE`, YAML or JSON; the Lambda gets it
 * as JSON). Every key has a documented default except `prometheus.url`; unknown keys are errors,
 * so a typo cannot silently fall back to a default. Secrets are never in this file: it names them,
 * and they come from the environment, a secrets file or AWS Secrets Manager (docs/collect.md).
 */
import * as z from 'zod';
import { regexText } from '../model/schema.js';
import { durationField, formatDuration } from './duration.js';
import { MAPPING_DEFAULTS, mappingRule } from './mappingConfig.js';
import { QUERY_NAMES, QUERY_SPECS, type QueryName } from './queries.js';

const secretName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_./-]*$/, 'must be a secret name (letters, digits, _ . / -)');
const attempts = z.int().min(1).max(10);

const prometheusAuth = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('none') }),
  /** The secret holds `{"username": …, "password": …}`. */
  z.strictObject({ type: z.literal('basic'), secret: secretName }),
  /** The secret holds `{"token": …}`. */
  z.strictObject({ type: z.literal('bearer'), secret: secretName }),
]);

const prometheus = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  auth: prometheusAuth.default({ type: 'none' }),
  tls: z
    .strictObject({
      ca_file: z.string().min(1).optional(),
      insecure_skip_verify: z.boolean().default(false),
    })
    .default({ insecure_skip_verify: false }),
  headers: z.record(z.string(), z.string()).default({}),
  timeout: durationField.default(30_000),
  max_attempts: attempts.default(4),
});

const openstack = z.strictObject({
  /** A clouds.yaml-style entry: `{auth: {auth_url, …}, region_name, interface}`. */
  secret: secretName.default('openstack'),
  microversion: z
    .string()
    .regex(/^2\.\d+$/, 'must look like "2.87"')
    .default('2.87'),
  timeout: durationField.default(30_000),
  max_attempts: attempts.default(4),
  page_size: z.int().min(1).max(1000).default(1000),
  /** Read traits, allocation ratios (and, from 2.88, usage) from Placement when the catalog has it. */
  placement: z.boolean().default(true),
  /** Read server groups (needs the admin policy for all_projects); off leaves server_group null. */
  server_groups: z.boolean().default(true),
  /** The zone of hosts in no zoned aggregate: Nova's `[DEFAULT] default_availability_zone`. */
  default_availability_zone: z.string().min(1).default('nova'),
  /** Parallel Placement requests. */
  concurrency: z.int().min(1).max(64).default(8),
  /**
   * How far back to read live migrations for each instance's last_migrated_at (the planner's
   * cooldown); null skips the call, and last_migrated_at is then null.
   */
  migration_history: durationField.nullable().default(7 * 86_400_000),
});

const inventory = z.strictObject({
  /** Where an instance's role comes from: a metadata key, else a tag `<tag_prefix><role>`. */
  role_metadata_key: z.string().min(1).nullable().default('role'),
  role_tag_prefix: z.string().min(1).nullable().default('role='),
  /**
   * Read the Kubernetes node, its cluster and the Consul agent from the keys below. Off by default:
   * any member of the VM's project can write server metadata, and so aim a drain at someone
   * else's node. Agents find both for themselves (docs/trust-model.md); turn this on only where
   * every project that can own a VM is trusted, and the agents' trust.server_metadata with it.
   */
  trust_server_metadata: z.boolean().default(false),
  kubernetes_node_metadata_key: z.string().min(1).nullable().default('kubernetes_node'),
  /**
   * The cluster of that node (a name in the kubernetes secret's `clusters`): from this server
   * metadata key, else from this key on the host's aggregates (kubernetesCluster.ts).
   */
  kubernetes_cluster_metadata_key: z.string().min(1).nullable().default('kubernetes_cluster'),
  kubernetes_cluster_aggregate_key: z.string().min(1).nullable().default(null),
  consul_node_metadata_key: z.string().min(1).nullable().default('consul_node'),
  consul_address_metadata_key: z.string().min(1).nullable().default('consul_address'),
  /**
   * Cell uuid → the names of its hosts (regular expressions, full match), as `nova-manage cell_v2
   * list_hosts` lists them: Nova's API does not say (cells.ts). Empty: one cell, none named.
   */
  cells: z.record(z.string().min(1), z.array(regexText).min(1)).default({}),
  /** `boot_from_volume`: a server without an image has its disk on shared storage. */
  shared_storage: z.enum(['boot_from_volume', 'always', 'never']).default('boot_from_volume'),
});

const credentials = z.strictObject({
  /** A JSON file `{"<secret name>": {...}}`; the environment (`PLACID_<NAME>_JSON`) is read first. */
  file: z.string().min(1).optional(),
  secrets_manager: z
    .strictObject({ prefix: z.string().default('placid/'), region: z.string().min(1).optional() })
    .optional(),
});

const collect = z.strictObject({
  /** How far back each run reads samples; runs overlap harmlessly (samples are keyed by time). */
  window: durationField.default(300_000),
  /** Time between samples: the range query's step. */
  step: durationField.default(60_000),
  /** Replaces `$rate_window` in the queries. */
  rate_window: durationField.default(300_000),
  /** Parallel Prometheus queries. */
  concurrency: z.int().min(1).max(32).default(4),
  /**
   * A host sample needs a steal value. `none`: only host-side steal (host_steal) gives one, else
   * the host sends no samples and readers use its VMs'. `vms`: fall back to its VMs' steal at that
   * step (stolen / (stolen + busy) vCPUs), which is what readers would compute from the VMs.
   */
  host_steal_fallback: z.enum(['none', 'vms']).default('none'),
});

const queryShape = Object.fromEntries(
  QUERY_NAMES.map((name) => [name, z.string().min(1).nullable().default(QUERY_SPECS[name].default)]),
) as Record<QueryName, z.ZodDefault<z.ZodNullable<z.ZodString>>>;

export const collectConfigSchema = z
  .strictObject({
    prometheus,
    openstack: openstack.default(openstack.parse({})),
    inventory: inventory.default(inventory.parse({})),
    credentials: credentials.default({}),
    collect: collect.default(collect.parse({})),
    /** PromQL per metric; null turns one off (its values are then missing, and marked as gaps). */
    queries: z.strictObject(queryShape).default(z.strictObject(queryShape).parse({})),
    mapping: z
      .strictObject({
        vm: z.array(mappingRule('vm')).min(1).default(MAPPING_DEFAULTS.vm),
        host: z.array(mappingRule('host')).min(1).default(MAPPING_DEFAULTS.host),
      })
      .default(MAPPING_DEFAULTS),
  })
  .superRefine((c, ctx) => {
    const steps = c.collect.window / c.collect.step;
    if (!Number.isInteger(steps)) {
      ctx.addIssue({
        code: 'custom',
        path: ['collect', 'window'],
        message: 'must be a whole number of steps',
      });
    } else if (steps > 720) {
      ctx.addIssue({
        code: 'custom',
        path: ['collect', 'window'],
        message: `is ${steps} steps; a report holds at most 720 samples`,
      });
    }
    if (c.collect.step % 1000 !== 0) {
      ctx.addIssue({ code: 'custom', path: ['collect', 'step'], message: 'must be whole seconds' });
    }
  });

export type CollectConfig = z.output<typeof collectConfigSchema>;
export type CollectConfigInput = z.input<typeof collectConfigSchema>;

/** The query text to run for `name`, `$rate_window` filled in; undefined when turned off. */
export function queryText(config: CollectConfig, name: QueryName): string | undefined {
  const query = config.queries[name];
  return query === null
    ? undefined
    : query.replaceAll('$rate_window', formatDuration(config.collect.rate_window));
}
