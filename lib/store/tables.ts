/**
 * The DynamoDB table design as plain data: the one source of truth for keys, indexes and TTL
 * attributes. The local stand-in (lib/local/dynalite.ts) creates tables from it and the CDK stack
 * maps it onto `dynamodb.TableV2`, so the two cannot drift. Access patterns: docs/store.md.
 *
 * Every write is a single-item conditional write: dynalite (the local stand-in) has no
 * transactions, TTL expiry or streams, so readers also filter expired items by their TTL attribute.
 */

export type AttributeType = 'S' | 'N' | 'B';

export interface KeyAttribute {
  readonly name: string;
  readonly type: AttributeType;
}

export type Projection =
  | { readonly type: 'ALL' }
  | { readonly type: 'KEYS_ONLY' }
  | { readonly type: 'INCLUDE'; readonly nonKeyAttributes: readonly string[] };

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly projection: Projection;
}

export interface TableDefinition {
  /** Stable name used in code, env variables and CDK construct ids. */
  readonly logicalName: string;
  readonly purpose: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  /** Epoch seconds; DynamoDB deletes the item some time after (dynalite never does). */
  readonly timeToLiveAttribute?: string;
  readonly billingMode: 'PAY_PER_REQUEST';
}

const S = (name: string): KeyAttribute => ({ name, type: 'S' });
const N = (name: string): KeyAttribute => ({ name, type: 'N' });

export const HOSTS_BY_CHANGE = 'byChange';
export const INSTANCES_BY_HOST = 'byHost';
export const PLANS_BY_STATUS = 'byStatus';
export const MIGRATIONS_BY_PLAN = 'byPlan';
/** TTL attribute name shared by every table that expires items. */
export const TTL_ATTRIBUTE = 'expires_at';
/**
 * Partitions of the host change index. One constant key would funnel every host write through a
 * single GSI partition (about 1,000 WCU/s); readers query each shard. Changing it needs a rewrite.
 */
export const HOST_CHANGE_SHARDS = 4;

export const TABLES = {
  hosts: {
    logicalName: 'hosts',
    purpose: 'Current state of each compute node (latest report plus pending claims)',
    partitionKey: S('host'),
    sortKey: S('nodename'),
    globalSecondaryIndexes: [
      {
        indexName: HOSTS_BY_CHANGE,
        partitionKey: S('change_shard'),
        sortKey: N('updated_at'),
        projection: { type: 'ALL' },
      },
    ],
    billingMode: 'PAY_PER_REQUEST',
  },
  instances: {
    logicalName: 'instances',
    purpose: 'Current state of each instance (latest report)',
    partitionKey: S('uuid'),
    globalSecondaryIndexes: [
      {
        indexName: INSTANCES_BY_HOST,
        partitionKey: S('host'),
        sortKey: S('uuid'),
        projection: { type: 'ALL' },
      },
    ],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
  samples: {
    logicalName: 'samples',
    purpose:
      "Steal/load sample pages: one item per compute node and report message, its VMs' samples included (immutable, expire by TTL); window digests; host sightings (seen#<hour>)",
    partitionKey: S('entity'),
    sortKey: S('ts'),
    globalSecondaryIndexes: [],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
  decisions: {
    logicalName: 'decisions',
    purpose: 'Scheduling decisions with their explanation, one per request id',
    partitionKey: S('request_id'),
    globalSecondaryIndexes: [],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
  plans: {
    logicalName: 'plans',
    purpose: 'Rebalancing plans, with the detector state item',
    partitionKey: S('plan_id'),
    globalSecondaryIndexes: [
      {
        indexName: PLANS_BY_STATUS,
        partitionKey: S('status'),
        sortKey: S('created_at'),
        projection: { type: 'ALL' },
      },
    ],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
  migrations: {
    logicalName: 'migrations',
    purpose: 'Migration records, one per planned move, a history per instance',
    partitionKey: S('instance_uuid'),
    sortKey: S('started_at'),
    globalSecondaryIndexes: [
      {
        indexName: MIGRATIONS_BY_PLAN,
        partitionKey: S('plan_id'),
        sortKey: S('instance_uuid'),
        projection: { type: 'ALL' },
      },
    ],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
  leases: {
    logicalName: 'leases',
    purpose: 'Named leases with owner, expiry and fencing token',
    partitionKey: S('name'),
    globalSecondaryIndexes: [],
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: 'PAY_PER_REQUEST',
  },
} as const satisfies Record<string, TableDefinition>;

export type LogicalTable = keyof typeof TABLES;
/** Physical table name for each logical table. */
export type TableNames = Record<LogicalTable, string>;

export const LOGICAL_TABLES = Object.keys(TABLES) as LogicalTable[];

/** Physical names from a prefix, e.g. `placid-hosts`. */
export function tableNames(prefix = 'placid-'): TableNames {
  return Object.fromEntries(LOGICAL_TABLES.map((t) => [t, `${prefix}${t}`])) as TableNames;
}

/** The environment variable that carries a table's physical name into a Lambda, e.g. PLACID_TABLE_HOSTS. */
export function tableEnvVar(table: LogicalTable): string {
  return `PLACID_TABLE_${table.toUpperCase()}`;
}

/** Physical names from the environment (set by the CDK stack), falling back to `tableNames(prefix)`. */
export function tableNamesFromEnv(env: NodeJS.ProcessEnv = process.env, prefix = 'placid-'): TableNames {
  const fallback = tableNames(prefix);
  return Object.fromEntries(LOGICAL_TABLES.map((t) => [t, env[tableEnvVar(t)] ?? fallback[t]])) as TableNames;
}
