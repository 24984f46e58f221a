/** Builds a Nova client from a named secret holding a clouds.yaml-style entry. */
import type { SecretsProvider } from '../credentials.js';
import type { CloudCredentials } from './auth.js';
import { parseCloudCredentials } from './cloudConfig.js';
import type { FetchLike } from './http.js';
import { KeystoneSession, type KeystoneSessionOptions } from './keystone.js';
import { NovaClient, type NovaClientOptions } from './nova.js';
import { caBundle, fetchFor } from './tlsFetch.js';

export interface NovaConnectOptions {
  /** Secret name (default `openstack`: env `PLACID_OPENSTACK_JSON`, or that key in the secrets file). */
  secretName?: string;
  keystone?: KeystoneSessionOptions;
  nova?: NovaClientOptions;
  /** Where `OS_CACERT` is read when the entry has no `cacert`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
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
  const fetch = options.keystone?.fetch ?? (await cloudFetch(credentials, `secret ${name}`, options.env));
  return new NovaClient(new KeystoneSession(credentials, { ...options.keystone, fetch }), {
    ...options.nova,
    fetch: options.nova?.fetch ?? fetch,
  });
}

/**
 * The fetch every client of this cloud should use: with the entry's `cacert` (else `OS_CACERT`)
 * trusted, or certificate checks off when the entry says `verify: false`; otherwise the global one.
 */
export async function cloudFetch(
  credentials: CloudCredentials,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FetchLike | undefined> {
  const fromEnv = env.OS_CACERT === '' ? undefined : env.OS_CACERT;
  const where = credentials.cacert !== undefined ? `${source} cacert` : 'OS_CACERT';
  const ca = await caBundle(credentials.cacert ?? fromEnv, where);
  return fetchFor({ ca, insecure: credentials.insecure });
}
