import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../model/errors.js';
import { parseWith } from '../../model/schema.js';
import type { ClusterAccess } from './connection.js';

const name = z.string().min(1);

const kubeconfigSchema = z.object({
  'current-context': z.string().optional(),
  clusters: z
    .array(
      z.object({
        name,
        cluster: z.looseObject({
          server: z.url({ protocol: /^https?$/ }),
          'certificate-authority': z.string().optional(),
          'certificate-authority-data': z.string().optional(),
          'insecure-skip-tls-verify': z.boolean().optional(),
          'tls-server-name': z.string().optional(),
        }),
      }),
    )
    .default([]),
  users: z
    .array(
      z.object({
        name,
        user: z.looseObject({
          token: z.string().optional(),
          tokenFile: z.string().optional(),
          'client-certificate': z.string().optional(),
          'client-certificate-data': z.string().optional(),
          'client-key': z.string().optional(),
          'client-key-data': z.string().optional(),
          exec: z.unknown().optional(),
          'auth-provider': z.unknown().optional(),
        }),
      }),
    )
    .default([]),
  contexts: z.array(z.object({ name, context: z.looseObject({ cluster: name, user: name }) })).default([]),
});

/**
 * Reads the cluster, user and TLS settings of one context of a kubeconfig. Static credentials only
 * (token, token file, client certificate): exec and auth-provider plugins cannot run in a Lambda.
 */
export async function loadKubeconfig(
  text: string,
  where: { context?: string; path?: string },
): Promise<Omit<ClusterAccess, 'timeoutMs'>> {
  const source = `kubeconfig${where.path ? ` ${where.path}` : ''}`;
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ConfigError(`${source}: not valid YAML (${(err as Error).message})`, { cause: err });
  }
  const config = parseWith(kubeconfigSchema, doc, source);
  const contextName = where.context ?? config['current-context'];
  if (!contextName) throw new ConfigError(`${source}: no context given and no current-context set`);
  const context = pick(config.contexts, contextName, 'context', source).context;
  const cluster = pick(config.clusters, context.cluster, 'cluster', source).cluster;
  const user = pick(config.users, context.user, 'user', source).user;
  if (user.exec !== undefined || user['auth-provider'] !== undefined) {
    throw new ConfigError(
      `${source}: user ${context.user} uses an exec or auth-provider plugin; give a token or client certificate`,
    );
  }

  const base = where.path ? dirname(where.path) : process.cwd();
  const file = (p: string, field: string) => readText(isAbsolute(p) ? p : resolve(base, p), field);
  const inline = (data: string | undefined, path: string | undefined, field: string) =>
    data !== undefined
      ? Promise.resolve(Buffer.from(data, 'base64').toString('utf8'))
      : path
        ? file(path, field)
        : undefined;

  const token = user.token ?? (user.tokenFile ? (await file(user.tokenFile, 'tokenFile')).trim() : undefined);
  return {
    server: new URL(cluster.server),
    tls: {
      ca: await inline(
        cluster['certificate-authority-data'],
        cluster['certificate-authority'],
        'certificate-authority',
      ),
      cert: await inline(user['client-certificate-data'], user['client-certificate'], 'client-certificate'),
      key: await inline(user['client-key-data'], user['client-key'], 'client-key'),
      skipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
      serverName: cluster['tls-server-name'],
    },
    authorization: token ? `Bearer ${token}` : undefined,
  };
}

function pick<T extends { name: string }>(items: T[], name: string, kind: string, source: string): T {
  const found = items.find((i) => i.name === name);
  if (!found) {
    const known = items.map((i) => i.name).join(', ') || 'none';
    throw new ConfigError(`${source}: ${kind} ${JSON.stringify(name)} is not defined (known: ${known})`);
  }
  return found;
}

/** Reads a file named in the connection settings; the error names the setting, never the content. */
export async function readText(path: string, field: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`kubernetes connection: cannot read ${field} ${path}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
