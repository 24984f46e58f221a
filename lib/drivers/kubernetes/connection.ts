import { z } from 'zod';
import { ConfigError } from '../../model/errors.js';
import { parseWith } from '../../model/schema.js';
import { loadKubeconfig, readText } from './kubeconfig.js';
import type { TlsSettings } from './transport.js';

const timeoutMs = z.number().int().positive().max(600_000).default(30_000);

/** Connect with a kubeconfig: its content (e.g. from Secrets Manager) or a file path. */
const kubeconfigConnection = z
  .object({
    kubeconfig: z.string().min(1).optional(),
    kubeconfigPath: z.string().min(1).optional(),
    /** Context to use instead of the kubeconfig's current-context. */
    context: z.string().min(1).optional(),
    timeoutMs,
  })
  .strict()
  .refine((c) => (c.kubeconfig === undefined) !== (c.kubeconfigPath === undefined), {
    message: 'give exactly one of kubeconfig (content) and kubeconfigPath',
  });

/** Connect with a bearer token (a service account's) to an API server URL. */
const tokenConnection = z
  .object({
    server: z.url({ protocol: /^https?$/ }),
    token: z.string().min(1),
    /** PEM CA bundle, inline or as a file; the system roots are used when neither is given. */
    ca: z.string().min(1).optional(),
    caFile: z.string().min(1).optional(),
    /** Accept any server certificate; never implied. */
    skipTLSVerify: z.boolean().default(false),
    timeoutMs,
  })
  .strict();

/** Either a token + server (+ CA), or a kubeconfig. */
export type KubernetesConnection = z.input<typeof tokenConnection> | z.input<typeof kubeconfigConnection>;

/** Everything needed to talk to one API server; `authorization` is a secret and is never logged. */
export interface ClusterAccess {
  server: URL;
  tls: TlsSettings;
  authorization?: string;
  timeoutMs: number;
}

/** Validates the connection settings and reads the files they name. */
export async function resolveClusterAccess(input: unknown): Promise<ClusterAccess> {
  // Chosen by key rather than z.union, so a mistake is reported against the form the caller meant.
  const usesServer = typeof input === 'object' && input !== null && 'server' in input;
  const config = usesServer
    ? parseWith(tokenConnection, input, 'kubernetes connection')
    : parseWith(kubeconfigConnection, input, 'kubernetes connection');
  let access: ClusterAccess;
  if ('server' in config) {
    const ca = config.ca ?? (config.caFile ? await readText(config.caFile, 'caFile') : undefined);
    access = {
      server: new URL(config.server),
      tls: { ca, skipTLSVerify: config.skipTLSVerify },
      authorization: `Bearer ${config.token}`,
      timeoutMs: config.timeoutMs,
    };
  } else {
    const text = config.kubeconfig ?? (await readText(config.kubeconfigPath!, 'kubeconfigPath'));
    const fromFile = await loadKubeconfig(text, { context: config.context, path: config.kubeconfigPath });
    access = { ...fromFile, timeoutMs: config.timeoutMs };
  }
  // Same rule as the official client: a bearer token must not cross plain HTTP unless the operator
  // has explicitly given up on TLS for this cluster.
  if (access.server.protocol === 'http:' && access.tls.skipTLSVerify !== true) {
    throw new ConfigError(
      `kubernetes connection: server ${access.server.origin} uses plain HTTP; set skipTLSVerify to allow it`,
    );
  }
  return access;
}
