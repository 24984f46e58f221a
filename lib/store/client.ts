/** DynamoDB clients: the document client every store module uses, with an optional endpoint override. */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface ClientOptions {
  /** e.g. the local stand-in's `http://127.0.0.1:PORT`; unset means the real regional endpoint. */
  endpoint?: string;
  region?: string;
  /** SDK-level attempts per call (its standard retry strategy, which also retries throttling). */
  maxAttempts?: number;
  /**
   * The SDK's own credential chain and region resolution (environment, profile, instance role),
   * even with an `endpoint`: a replica reading the deployed tables (`placid serve --replica`).
   */
  credentialChain?: boolean;
}

/** A low-level client; dummy credentials when pointed at a local endpoint so no AWS profile is needed. */
export function createDynamoClient(options: ClientOptions = {}): DynamoDBClient {
  if (options.credentialChain) {
    return new DynamoDBClient({
      region: options.region,
      endpoint: options.endpoint,
      maxAttempts: options.maxAttempts,
    });
  }
  const config: DynamoDBClientConfig = {
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    maxAttempts: options.maxAttempts,
  };
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  }
  return new DynamoDBClient(config);
}

/**
 * The document client: plain JS values in and out. `removeUndefinedValues` lets optional fields be
 * written without cleaning every item first.
 */
export function createDocumentClient(options: ClientOptions | DynamoDBClient = {}): DynamoDBDocumentClient {
  const client = options instanceof DynamoDBClient ? options : createDynamoClient(options);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
