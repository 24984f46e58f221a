/**
 * The DynamoDB tables, built from lib/store/tables.ts (the one source of truth for keys, indexes and
 * TTL): on demand, point-in-time recovery, a customer-managed KMS key, deletion protection, retained
 * when the stack goes away. `grant` hands out exactly the item operations a stage needs.
 */
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  type Attribute,
  AttributeType,
  Billing,
  type GlobalSecondaryIndexPropsV2,
  ProjectionType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import {
  type IndexDefinition,
  type KeyAttribute,
  LOGICAL_TABLES,
  type LogicalTable,
  TABLES,
  type TableDefinition,
  tableEnvVar,
} from '../store/tables.js';

/** DynamoDB item operations (no wildcards: each stage lists the ones it calls). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'Scan'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

export type TableAccess = Partial<Record<LogicalTable, readonly TableAction[]>>;

const WRITE_ACTIONS: ReadonlySet<TableAction> = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
]);
const INDEX_ACTIONS: ReadonlySet<TableAction> = new Set(['Query', 'Scan']);

const ATTRIBUTE_TYPES = { S: AttributeType.STRING, N: AttributeType.NUMBER, B: AttributeType.BINARY };
const attribute = (key: KeyAttribute): Attribute => ({ name: key.name, type: ATTRIBUTE_TYPES[key.type] });

function indexProps(index: IndexDefinition): GlobalSecondaryIndexPropsV2 {
  const base = {
    indexName: index.indexName,
    partitionKey: attribute(index.partitionKey),
    sortKey: index.sortKey && attribute(index.sortKey),
  };
  const { projection } = index;
  if (projection.type === 'INCLUDE') {
    return {
      ...base,
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...projection.nonKeyAttributes],
    };
  }
  return { ...base, projectionType: ProjectionType[projection.type] };
}

export class Tables extends Construct {
  readonly key: Key;
  readonly tables: Record<LogicalTable, TableV2>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Placid DynamoDB tables',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.tables = Object.fromEntries(
      LOGICAL_TABLES.map((name) => [name, this.table(name, TABLES[name])]),
    ) as Record<LogicalTable, TableV2>;
  }

  private table(name: LogicalTable, def: TableDefinition): TableV2 {
    return new TableV2(this, pascalCase(name), {
      partitionKey: attribute(def.partitionKey),
      sortKey: def.sortKey && attribute(def.sortKey),
      globalSecondaryIndexes: def.globalSecondaryIndexes.map(indexProps),
      timeToLiveAttribute: def.timeToLiveAttribute,
      billing: Billing.onDemand(),
      encryption: TableEncryptionV2.customerManagedKey(this.key),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** PLACID_TABLE_<NAME> → physical name, for each table a function uses (see tableNamesFromEnv). */
  environment(access: TableAccess): Record<string, string> {
    return Object.fromEntries(
      (Object.keys(access) as LogicalTable[]).map((t) => [tableEnvVar(t), this.tables[t].tableName]),
    );
  }

  /**
   * Allows exactly `access` on each table (and its indexes, for Query and Scan), plus the KMS calls
   * DynamoDB makes on the caller's behalf, only through DynamoDB.
   */
  grant(grantee: IGrantable, access: TableAccess): void {
    let writes = false;
    for (const [name, actions] of Object.entries(access) as [LogicalTable, readonly TableAction[]][]) {
      const table = this.tables[name];
      const indexes = actions.some((a) => INDEX_ACTIONS.has(a))
        ? TABLES[name].globalSecondaryIndexes.map((i) => `${table.tableArn}/index/${i.indexName}`)
        : [];
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          actions: actions.map((a) => `dynamodb:${a}`),
          resources: [table.tableArn, ...indexes],
        }),
      );
      writes ||= actions.some((a) => WRITE_ACTIONS.has(a));
    }
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: writes ? ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'] : ['kms:Decrypt'],
        resources: [this.key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(this).region}.amazonaws.com` } },
      }),
    );
  }
}

export const pascalCase = (name: string): string =>
  name.replace(/(^|[-_\s])(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
