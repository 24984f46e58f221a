import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { z } from 'zod';
import { ConfigError } from '../../model/errors.js';
import { parseWith } from '../../model/schema.js';

const timeoutMs = z.number().int().positive().max(600_000).default(30_000);

/** Connect with a kubeconfig: its content (e.g. from Secrets Manager) or a file path. */
const kubeconfigConnection = z
  .object({
    kubeconfig: z.string().min(1).optional(),
    kubeconfigPath: z.string().min(1).optional(),
    /** Context to use instead of the kubeconfig's current-context. */
    context: z.string().min(1).optional(),
    /** Limit on each API request. Default 30000. */
    timeoutMs,
  })
  .strict()
  .refine((c) => (c.kubeconfig === undefined) !== (c.kubeconfigPath === undefined), {
    message: 'give exactly one of kubeconfig (its content) and kubeconfigPath',
  });

/** Connect with a bearer token (a service account's) to an API server URL. */
const tokenConnection = z
  .object({
    server: z.url({ protocol: /^https?$/ }),
    token: z.string().min(1),
    /** PEM CA bundle, inline or as a file; the system roots are used when neither is given. */
    ca: z.string().min(1).optional(),
    caFile: z.string().min(1).optional(),
    /** Accept any server certificate (and allow plain HTTP); never implied. */
    skipTLSVerify: z.boolean().default(false),
    timeoutMs,
  })
  .strict()
  .refine((c) => c.ca === undefined || c.caFile === undefined, { message: 'give ca or caFile, not both' });

/** Either a token + server (+ CA), or a kubeconfig. */
export type KubernetesConnection = z.input<typeof tokenConnection> | z.input<typeof kubeconfigConnection>;

const SOURCE = 'kubernetes connection';

/**
 * Validates the connection settings and loads them into the official client's KubeConfig, reading
 * any files now so that a bad path fails at startup rather than in the middle of a drain.
 */
export async function loadKubeConfig(input: unknown): Promise<{ kubeConfig: KubeConfig; timeoutMs: number }> {
  // Chosen by key rather than z.union, so a mistake is reported against the form the caller meant.
  const usesServer = typeof input === 'object' && input !== null && 'server' in input;
  const config = usesServer
    ? parseWith(tokenConnection, input, SOURCE)
    : parseWith(kubeconfigConnection, input, SOURCE);
  const kubeConfig = new KubeConfig();
  if ('server' in config) {
    const ca = config.ca ?? (config.caFile ? await readText(config.caFile, 'caFile') : undefined);
    kubeConfig.loadFromOptions({
      clusters: [
        {
          name: 'placid',
          server: config.server,
          caData: ca === undefined ? undefined : Buffer.from(ca).toString('base64'),
          skipTLSVerify: config.skipTLSVerify,
        },
      ],
      users: [{ name: 'placid', token: config.token }],
      contexts: [{ name: 'placid', cluster: 'placid', user: 'placid' }],
      currentContext: 'placid',
    });
  } else {
    const text = config.kubeconfig ?? (await readText(config.kubeconfigPath!, 'kubeconfigPath'));
    loadKubeconfigText(kubeConfig, text, config.kubeconfigPath);
    if (config.context !== undefined) useContext(kubeConfig, config.context);
  }
  checkCluster(kubeConfig);
  return { kubeConfig, timeoutMs: config.timeoutMs };
}

function loadKubeconfigText(kubeConfig: KubeConfig, text: string, path: string | undefined): void {
  try {
    kubeConfig.loadFromString(text);
  } catch (err) {
    // First line only: YAML parse errors go on to quote the source, which may hold a token.
    const reason = String((err as Error).message).split('\n')[0];
    throw new ConfigError(`${SOURCE}: kubeconfig${path ? ` ${path}` : ''} is invalid: ${reason}`);
  }
  // Relative certificate and token paths in a kubeconfig are relative to the file, as kubectl reads them.
  if (path) kubeConfig.makePathsAbsolute(dirname(path));
}

function useContext(kubeConfig: KubeConfig, context: string): void {
  if (!kubeConfig.getContextObject(context)) {
    const known = kubeConfig.getContexts().map((c) => c.name);
    throw new ConfigError(
      `${SOURCE}: context ${context} is not in the kubeconfig (known: ${known.join(', ') || 'none'})`,
    );
  }
  kubeConfig.setCurrentContext(context);
}

function checkCluster(kubeConfig: KubeConfig): void {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) {
    throw new ConfigError(
      `${SOURCE}: the current context (${kubeConfig.getCurrentContext() || 'none'}) names no cluster`,
    );
  }
  // The client refuses this too, but only at the first request; say so at startup instead.
  if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
    throw new ConfigError(
      `${SOURCE}: server ${cluster.server} uses plain HTTP; set skipTLSVerify to allow it`,
    );
  }
}

async function readText(path: string, field: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw new ConfigError(`${SOURCE}: cannot read ${field} ${path} (${code})`);
  }
}
