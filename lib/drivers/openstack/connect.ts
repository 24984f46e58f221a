/** Builds a Nova client from a named secret holding a clouds.yaml-style entry. */
import type { SecretsProvider } from '../credentials.js';
import { parseCloudCredentials } from './cloudConfig.js';
import { KeystoneSession, type KeystoneSessionOptions } from './keystone.js';
import { NovaClient, type NovaClientOptions } from './nova.js';

export interface NovaConnectOptions {
  /** Secret name (default `openstack`: env `PLACID_OPENSTACK_JSON`, or that key in the secrets file). */
  secretName?: string;
  keystone?: KeystoneSessionOptions;
  nova?: NovaClientOptions;
}

/**
 * Loads the credentials once and returns a client whose session authenticates lazily, on the first
 * call. Reuse the client across calls (e.g. at Lambda module scope) so its token is reused too.
 */
export async function connectNova(
  secrets: SecretsProvider,
  options: NovaConnectOptions = {},
): Promise<NovaClient> {
  const name = options.secretName ?? 'openstack';
  const credentials = parseCloudCredentials(await secrets.loadSecret(name), `secret ${name}`);
  return new NovaClient(new KeystoneSession(credentials, options.keystone), options.nova);
}
