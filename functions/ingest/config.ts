/**
 * The ingest Lambda's configuration, from its environment (set by the CDK stack). Parsed once at
 * module load: a misconfigured function fails its cold start with every problem named, instead of
 * failing each message later.
 */
import { z } from 'zod';
import { ConfigError } from '../../lib/model/errors.js';
import { type TableNames, tableNamesFromEnv } from '../../lib/store/tables.js';

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
  PLACID_INGEST_DLQ_URL: sqsQueueUrl,
  // The tables the ingest stage writes (names as tableEnvVar makes them); a silent fallback to
  // default names could write to the wrong table.
  PLACID_TABLE_HOSTS: tableName,
  PLACID_TABLE_INSTANCES: tableName,
  PLACID_TABLE_SAMPLES: tableName,
  /** Only for local runs against dynalite or DynamoDB Local. */
  PLACID_DYNAMODB_ENDPOINT: z.url({ error: 'must be a URL such as http://127.0.0.1:8000' }).optional(),
});

export interface IngestConfig {
  region: string;
  deadLetterQueueUrl: string;
  tables: TableNames;
  dynamoEndpoint?: string;
}

/** @throws ConfigError naming every missing or malformed variable. */
export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  const parsed = ingestEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new ConfigError(`ingest stage environment: ${problems.join('; ')}`);
  }
  return {
    region: parsed.data.AWS_REGION,
    deadLetterQueueUrl: parsed.data.PLACID_INGEST_DLQ_URL,
    tables: tableNamesFromEnv(env),
    dynamoEndpoint: parsed.data.PLACID_DYNAMODB_ENDPOINT,
  };
}
