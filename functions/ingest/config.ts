/**
 * The ingest Lambda's configuration, from its environment (set by the CDK stack). Parsed once at
 * module load: a misconfigured function fails its cold start with every problem named, instead of
 * failing each message later.
 */
import * as z from 'zod';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';
import { parseEnv } from '../shared/env.js';

/**
 * Variable names (lib/infra sets them from here). A function's own dead-letter queue is
 * PLACID_DEAD_LETTER_QUEUE_URL in every stage; table names come from tableEnvVar.
 */
export const INGEST_ENV = {
  deadLetterQueueUrl: 'PLACID_DEAD_LETTER_QUEUE_URL',
  dynamoEndpoint: 'PLACID_DYNAMODB_ENDPOINT',
} as const;

const tableName = z
  .string({ error: 'is required (the physical DynamoDB table name)' })
  .regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be 3-255 characters of letters, digits, _ . or -');

const sqsQueueUrl = z
  .string({ error: 'is required (the dead-letter queue URL)' })
  .regex(
    /^https:\/\/sqs\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/\d{12}\/[A-Za-z0-9_-]{1,80}$/,
    'must be an SQS queue URL, e.g. https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest-dlq',
  );

const ingestEnv = z.object({
  AWS_REGION: z
    .string({ error: 'is required (Lambda sets it)' })
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-west-1'),
  [INGEST_ENV.deadLetterQueueUrl]: sqsQueueUrl,
  // The tables the ingest stage writes (names as tableEnvVar makes them); a silent fallback to
  // default names could write to the wrong table.
  PLACID_TABLE_HOSTS: tableName,
  PLACID_TABLE_INSTANCES: tableName,
  PLACID_TABLE_SAMPLES: tableName,
  PLACID_TABLE_LEASES: tableName,
  /** Only for local runs against dynalite or DynamoDB Local. */
  [INGEST_ENV.dynamoEndpoint]: z.url({ error: 'must be a URL such as http://127.0.0.1:8000' }).optional(),
});

export interface IngestConfig {
  region: string;
  deadLetterQueueUrl: string;
  tables: TableNames;
  dynamoEndpoint?: string;
}

/** @throws ConfigError naming every missing or malformed variable. */
export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  const v = parseEnv(ingestEnv, env, 'ingest stage environment');
  return {
    region: v.AWS_REGION,
    deadLetterQueueUrl: v[INGEST_ENV.deadLetterQueueUrl],
    tables: tableNamesFromEnv(env),
    dynamoEndpoint: v[INGEST_ENV.dynamoEndpoint],
  };
}
