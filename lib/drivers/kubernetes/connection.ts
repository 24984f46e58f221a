import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import * as z from 'zod';
import { importModule } from '../../config/importModule.js';
import { ConfigError } from '../../model/errors.js';
import { parseWith } from '../../model/schema.js';
import { type ClusterAccess, kubeConfigAccess, tokenAccess } from './access.js';

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

export interface ResolvedConnection {
  access: ClusterAccess;
  timeoutMs: number;
}

/** The official client's module, for the kubeconfig form only. */
export type KubernetesClientModule = Pick<typeof import('@kubernetes/client-node'), 'KubeConfig'>;

/**
 * Validates the connection settings and resolves how to reach the API server, reading any files now
 * so that a bad path fails at startup rather than in the middle of a drain. A kubeconfig is read by
 * the official client (loaded by `loadClient` only then); a token needs no client at all.
 */
export async function loadKubeConfig(
  input: unknown,
  loadClient: () => Promise<KubernetesClientModule> = () => importKubernetesClient(),
): Promise<ResolvedConnection> {
  // Chosen by key rather than z.union, so a mistake is reported against the form the caller meant.
  const usesServer = typeof input === 'object' && input !== null && 'server' in input;
  if (usesServer) {
    const config = parseWith(tokenConnection, input, SOURCE);
    checkServer(config.server, config.skipTLSVerify);
    const ca = config.ca ?? (config.caFile ? await readText(config.caFile, 'caFile') : undefined);
    const access = tokenAccess({
      server: config.server,
      token: config.token,
      ca,
      skipTLSVerify: config.skipTLSVerify,
    });
    return { access, timeoutMs: config.timeoutMs };
  }
  const config = parseWith(kubeconfigConnection, input, SOURCE);
  const text = config.kubeconfig ?? (await readText(config.kubeconfigPath!, 'kubeconfigPath'));
  const { KubeConfig } = await loadClient();
  const kubeConfig = new KubeConfig();
  loadKubeconfigText(kubeConfig, text, config.kubeconfigPath);
  if (config.context !== undefined) useContext(kubeConfig, config.context);
  const server = checkCluster(kubeConfig);
  return { access: kubeConfigAccess(kubeConfig, server), timeoutMs: config.timeoutMs };
}

/**
 * The Lambda bundles leave the official client out (it is most of their size, and a token is what
 * a function should hold); say so instead of failing with a module error.
 */
export async function importKubernetesClient(
  load: () => Promise<KubernetesClientModule> = () =>
    importModule<KubernetesClientModule>('@kubernetes/client-node'),
): Promise<KubernetesClientModule> {
  try {
    return await load();
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new ConfigError(
      `${SOURCE}: a kubeconfig needs @kubernetes/client-node, which this build leaves out; ` +
        'store the token form instead ({"server", "token", "ca"})',
      { cause: err },
    );
  }
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

/** The current context's server URL, checked. */
function checkCluster(kubeConfig: KubeConfig): string {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) {
    throw new ConfigError(
      `${SOURCE}: the current context (${kubeConfig.getCurrentContext() || 'none'}) names no cluster`,
    );
  }
  checkServer(cluster.server, cluster.skipTLSVerify);
  return cluster.server;
}

// The official client refuses this too, but only at the first request; say so at startup instead.
function checkServer(server: string, skipTLSVerify: boolean): void {
  if (server.startsWith('http:') && !skipTLSVerify) {
    throw new ConfigError(`${SOURCE}: server ${server} uses plain HTTP; set skipTLSVerify to allow it`);
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
