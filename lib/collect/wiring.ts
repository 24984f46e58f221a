/**
 * Builds the collector's sources from its config: the Prometheus client (auth from a named secret,
 * CA from a file) and the Nova/Placement clients over one Keystone session. Secrets are looked up
 * in the environment (`PLACID_<NAME>_JSON`), then the configured secrets file, then AWS Secrets
 * Manager; they stay in the clients' private fields and never reach a log line.
 */
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import {
  envSecrets,
  fileSecrets,
  firstFoundSecrets,
  type SecretsProvider,
  secretsManagerSecrets,
} from '../drivers/credentials.js';
import { parseCloudCredentials } from '../drivers/openstack/cloudConfig.js';
import { cloudFetch } from '../drivers/openstack/connect.js';
import type { FetchLike } from '../drivers/openstack/http.js';
import { NovaInventoryClient } from '../drivers/openstack/inventory.js';
import { KeystoneSession } from '../drivers/openstack/keystone.js';
import { PlacementClient } from '../drivers/openstack/placement.js';
import { closeFetch } from '../drivers/openstack/tlsFetch.js';
import { type PrometheusAuth, PrometheusClient } from '../drivers/prometheus/client.js';
import { ConfigError, ValidationError } from '../model/errors.js';
import type { CollectConfig } from './config.js';
import { NovaInventory } from './novaInventory.js';
import type { InventorySource, MetricsSource } from './ports.js';
import { PrometheusMetrics } from './prometheusMetrics.js';

export interface CollectorSources {
  metrics: MetricsSource;
  inventory: InventorySource;
  /** Closes the clients' keep-alive connections (sources replaced by a reconnect). */
  close?(): void;
}

export interface WiringOptions {
  env?: NodeJS.ProcessEnv;
  /** Replaces the provider chain built from the config (tests, or a Lambda's own). */
  secrets?: SecretsProvider;
}

export async function connectSources(
  config: CollectConfig,
  options: WiringOptions = {},
): Promise<CollectorSources> {
  const secrets = options.secrets ?? (await secretsFor(config, options.env ?? process.env));
  const [prometheus, nova] = await Promise.all([
    prometheusClient(config, secrets),
    novaInventory(config, secrets),
  ]);
  return {
    metrics: new PrometheusMetrics(prometheus),
    inventory: nova.inventory,
    close: () => {
      prometheus.close();
      closeFetch(nova.fetch);
    },
  };
}

async function secretsFor(config: CollectConfig, env: NodeJS.ProcessEnv): Promise<SecretsProvider> {
  const providers = [envSecrets(env)];
  if (config.credentials.file) providers.push(fileSecrets(config.credentials.file));
  const sm = config.credentials.secrets_manager;
  if (sm) {
    // Loaded only when configured: the SDK client is large and most local runs do not need it.
    const [{ SecretsManagerClient }, { fromSecretsManagerClient }] = await Promise.all([
      import('@aws-sdk/client-secrets-manager'),
      import('../drivers/awsSecretsManager.js'),
    ]);
    const client = new SecretsManagerClient(sm.region ? { region: sm.region } : {});
    providers.push(secretsManagerSecrets(fromSecretsManagerClient(client), { prefix: sm.prefix }));
  }
  return firstFoundSecrets(...providers);
}

const basicSecret = z.object({ username: z.string().min(1), password: z.string().min(1) });
const bearerSecret = z.object({ token: z.string().min(1) });

async function prometheusClient(config: CollectConfig, secrets: SecretsProvider): Promise<PrometheusClient> {
  const p = config.prometheus;
  let auth: PrometheusAuth = { kind: 'none' };
  if (p.auth.type !== 'none') {
    const secret = await secrets.loadSecret(p.auth.secret);
    const schema = p.auth.type === 'basic' ? basicSecret : bearerSecret;
    const parsed = schema.safeParse({ ...secret });
    if (!parsed.success) {
      // Paths and expectations only: zod's messages never quote the values.
      const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      throw new ValidationError(`secret ${p.auth.secret} (prometheus ${p.auth.type} auth)`, issues);
    }
    auth =
      p.auth.type === 'basic'
        ? { kind: 'basic', ...(parsed.data as z.output<typeof basicSecret>) }
        : { kind: 'bearer', ...(parsed.data as z.output<typeof bearerSecret>) };
  }
  let ca: string | undefined;
  if (p.tls.ca_file) {
    try {
      ca = await readFile(p.tls.ca_file, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `prometheus.tls.ca_file ${p.tls.ca_file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      );
    }
  }
  return new PrometheusClient({
    url: p.url,
    auth,
    tls: { ca, insecureSkipVerify: p.tls.insecure_skip_verify },
    headers: p.headers,
    timeoutMs: p.timeout,
    retry: { maxAttempts: p.max_attempts },
  });
}

async function novaInventory(
  config: CollectConfig,
  secrets: SecretsProvider,
): Promise<{ inventory: InventorySource; fetch: FetchLike | undefined }> {
  const os = config.openstack;
  const credentials = parseCloudCredentials(await secrets.loadSecret(os.secret), `secret ${os.secret}`);
  const fetch = await cloudFetch(credentials, `secret ${os.secret}`);
  const session = new KeystoneSession(credentials, { timeoutMs: os.timeout, fetch });
  const retry = { maxAttempts: os.max_attempts };
  const nova = new NovaInventoryClient(session, {
    fetch,
    microversion: os.microversion,
    timeoutMs: os.timeout,
    pageSize: os.page_size,
    retry,
  });
  const placement = os.placement
    ? new PlacementClient(session, { timeoutMs: os.timeout, retry, fetch })
    : null;
  return { inventory: new NovaInventory(nova, placement, config), fetch };
}
