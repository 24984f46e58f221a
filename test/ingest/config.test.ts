import { describe, expect, it } from 'vitest';
import { loadIngestConfig } from '../../functions/ingest/config.js';
import { ConfigError } from '../../lib/model/errors.js';

const DLQ = 'https://sqs.eu-west-1.amazonaws.com/123456789012/placid-ingest-dlq';
const ENV = {
  AWS_REGION: 'eu-west-1',
  PLACID_DEAD_LETTER_QUEUE_URL: DLQ,
  PLACID_TABLE_HOSTS: 'prod-hosts',
  PLACID_TABLE_INSTANCES: 'prod-instances',
  PLACID_TABLE_SAMPLES: 'prod-samples',
  PLACID_TABLE_LEASES: 'prod-leases',
};

describe('loadIngestConfig', () => {
  it('reads the region, the dead-letter queue and the table names', () => {
    // Act
    const config = loadIngestConfig(ENV);
    // Assess
    expect(config).toMatchObject({
      region: 'eu-west-1',
      deadLetterQueueUrl: DLQ,
      tables: { hosts: 'prod-hosts', instances: 'prod-instances', samples: 'prod-samples' },
      dynamoEndpoint: undefined,
    });
  });

  it('falls back to the default names for tables the stage does not write', () => {
    // Act
    const config = loadIngestConfig(ENV);
    // Assess
    expect(config.tables.decisions).toBe('placid-decisions');
  });

  it.each([
    [
      'a missing dead-letter queue',
      { PLACID_DEAD_LETTER_QUEUE_URL: undefined },
      /PLACID_DEAD_LETTER_QUEUE_URL is required/,
    ],
    [
      'a dead-letter queue that is not an SQS URL',
      { PLACID_DEAD_LETTER_QUEUE_URL: 'http://localhost/q' },
      /PLACID_DEAD_LETTER_QUEUE_URL must be an SQS queue URL/,
    ],
    ['a missing table name', { PLACID_TABLE_SAMPLES: undefined }, /PLACID_TABLE_SAMPLES is required/],
    [
      'a table name DynamoDB would refuse',
      { PLACID_TABLE_HOSTS: 'h!' },
      /PLACID_TABLE_HOSTS must be 3-255 characters/,
    ],
    ['a malformed region', { AWS_REGION: 'Ireland' }, /AWS_REGION must be an AWS region/],
    [
      'an endpoint that is not a URL',
      { PLACID_DYNAMODB_ENDPOINT: 'localhost' },
      /PLACID_DYNAMODB_ENDPOINT must be a URL/,
    ],
  ])('fails the cold start on %s, naming the variable', (_, change, message) => {
    // Act
    const act = () => loadIngestConfig({ ...ENV, ...change });
    // Assess
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(message);
  });

  it('lists every problem at once', () => {
    // Act
    const act = () => loadIngestConfig({ AWS_REGION: 'eu-west-1' });
    // Assess
    expect(act).toThrow(
      /PLACID_DEAD_LETTER_QUEUE_URL is required.*; PLACID_TABLE_HOSTS is required.*; PLACID_TABLE_INSTANCES is required.*; PLACID_TABLE_SAMPLES is required.*; PLACID_TABLE_LEASES is required/,
    );
  });
});
