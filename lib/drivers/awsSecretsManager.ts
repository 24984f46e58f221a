/** The Secrets Manager SDK behind the `SecretsManagerLike` port that `secretsManagerSecrets` uses. */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SecretFormatError, type SecretsManagerLike } from './credentials.js';

/**
 * Adapts an SDK client; the caller owns it (region, credentials, retries).
 * @example secretsManagerSecrets(fromSecretsManagerClient(new SecretsManagerClient({})), { prefix: 'placid/' })
 */
export function fromSecretsManagerClient(client: Pick<SecretsManagerClient, 'send'>): SecretsManagerLike {
  return {
    async getSecretValue(secretId) {
      const output = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      if (output.SecretString === undefined) {
        throw new SecretFormatError(
          `Secrets Manager secret ${secretId} has no SecretString (binary secrets are not supported)`,
        );
      }
      return output.SecretString;
    },
  };
}
