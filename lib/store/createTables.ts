/** Creates tables from the definitions in tables.ts (for the local stand-in; CDK does it on AWS). */
import {
  type AttributeDefinition,
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection as SdkProjection,
} from '@aws-sdk/client-dynamodb';
import {
  type KeyAttribute,
  LOGICAL_TABLES,
  type Projection,
  TABLES,
  type TableDefinition,
  type TableNames,
} from './tables.js';

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  const keys: KeySchemaElement[] = [{ AttributeName: partitionKey.name, KeyType: 'HASH' }];
  if (sortKey) keys.push({ AttributeName: sortKey.name, KeyType: 'RANGE' });
  return keys;
}

function projection(p: Projection): SdkProjection {
  if (p.type === 'INCLUDE') return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...p.nonKeyAttributes] };
  return { ProjectionType: p.type };
}

/** The CreateTable request for one definition (key attributes declared once each). */
export function createTableInput(def: TableDefinition, tableName: string): CreateTableCommandInput {
  const keys = new Map<string, KeyAttribute>();
  for (const k of [def.partitionKey, def.sortKey]) if (k) keys.set(k.name, k);
  for (const gsi of def.globalSecondaryIndexes)
    for (const k of [gsi.partitionKey, gsi.sortKey]) if (k) keys.set(k.name, k);
  const attributes: AttributeDefinition[] = [...keys.values()].map((k) => ({
    AttributeName: k.name,
    AttributeType: k.type,
  }));
  return {
    TableName: tableName,
    BillingMode: def.billingMode,
    AttributeDefinitions: attributes,
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    GlobalSecondaryIndexes:
      def.globalSecondaryIndexes.length === 0
        ? undefined
        : def.globalSecondaryIndexes.map((gsi) => ({
            IndexName: gsi.indexName,
            KeySchema: keySchema(gsi.partitionKey, gsi.sortKey),
            Projection: projection(gsi.projection),
          })),
  };
}

/**
 * Creates every table that does not exist yet and waits until all are ACTIVE. Idempotent, so an
 * on-disk store can be reopened. TTL is not configured: dynalite does not support UpdateTimeToLive.
 */
export async function createTables(
  client: DynamoDBClient,
  names: TableNames,
  timeoutMs = 10_000,
): Promise<void> {
  await Promise.all(
    LOGICAL_TABLES.map(async (t) => {
      try {
        await client.send(new CreateTableCommand(createTableInput(TABLES[t], names[t])));
      } catch (error) {
        if ((error as Error).name !== 'ResourceInUseException') throw error;
      }
      await waitUntilActive(client, names[t], timeoutMs);
    }),
  );
}

async function waitUntilActive(client: DynamoDBClient, tableName: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`table ${tableName} is still ${Table?.TableStatus} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
