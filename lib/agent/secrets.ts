/** Where the agent's driver credentials come from: its config's file, or Secrets Manager. */
import type { SecretsProvider } from '../drivers/credentials.js';
import type { DriverSecretNames } from '../workflow/drivers.js';
import type { AgentConfig } from './config.js';

export interface AgentSecrets {
  provider: SecretsProvider;
  names: DriverSecretNames;
}

export async function secretsOf(config: AgentConfig): Promise<AgentSecrets> {
  const [{ DEFAULT_SECRET_NAMES }, credentials] = await Promise.all([
    import('../workflow/drivers.js'),
    import('../drivers/credentials.js'),
  ]);
  if (config.credentials.source === 'file') {
    return { provider: credentials.fileSecrets(config.credentials.path), names: DEFAULT_SECRET_NAMES };
  }
  const [{ SecretsManagerClient }, { fromSecretsManagerClient }] = await Promise.all([
    import('@aws-sdk/client-secrets-manager'),
    import('../drivers/awsSecretsManager.js'),
  ]);
  const client = fromSecretsManagerClient(new SecretsManagerClient({ region: config.region }));
  const { nova, kubernetes, consul } = config.credentials;
  return { provider: credentials.secretsManagerSecrets(client), names: { nova, kubernetes, consul } };
}
