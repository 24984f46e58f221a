/**
 * Where drivers get their credentials: AWS Secrets Manager in the cloud, the environment or a JSON
 * file locally. Every secret is a JSON object, returned redacted (it prints as `[redacted]`), and no
 * error ever quotes a secret's content — not even the JSON parser's message, which would.
 */
import { readFile } from 'node:fs/promises';
import { PlacidError } from '../model/errors.js';
import { redacted } from './redact.js';

export type Secret = Readonly<Record<string, unknown>>;

export interface SecretsProvider {
  /** The secret called `name` (e.g. `openstack`), parsed and redacted. */
  loadSecret(name: string): Promise<Secret>;
}

/** No provider has a secret by that name; says where it looked. */
export class SecretNotFoundError extends PlacidError {}

/** A secret exists but is not a JSON object; says where, never what it contains. */
export class SecretFormatError extends PlacidError {}

/** The secret store failed (access denied, throttled, unreachable): not a missing secret. */
export class SecretUnavailableError extends PlacidError {}

/** The minimum of Secrets Manager the adapter needs; wrap `@aws-sdk/client-secrets-manager` in it. */
export interface SecretsManagerLike {
  /** The `SecretString` of the secret with this id or ARN. */
  getSecretValue(secretId: string): Promise<string>;
}

const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9_./-]*$/;

/** `openstack` → `PLACID_OPENSTACK_JSON`; `nova-prod` → `PLACID_NOVA_PROD_JSON`. */
export function secretEnvName(name: string): string {
  return `PLACID_${checkedName(name)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '_')}_JSON`;
}

/** Secrets from `PLACID_<NAME>_JSON` environment variables. */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): SecretsProvider {
  return {
    async loadSecret(name) {
      const variable = secretEnvName(name);
      const text = env[variable];
      if (text === undefined || text === '') {
        throw new SecretNotFoundError(`secret ${name}: environment variable ${variable} is not set`);
      }
      return parseSecret(text, `environment variable ${variable}`);
    },
  };
}

/**
 * Secrets from one JSON file mapping each name to its secret object: `{"openstack": {...}}`.
 * `read` is how the file is read (a caller may share one read between several providers).
 */
export function fileSecrets(
  path: string,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): SecretsProvider {
  return {
    async loadSecret(name) {
      checkedName(name);
      let text: string;
      try {
        text = await read(path);
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'unreadable';
        throw new SecretNotFoundError(`secret ${name}: cannot read secrets file ${path} (${code})`);
      }
      const all = parseSecret(text, `secrets file ${path}`);
      if (!Object.hasOwn(all, name))
        throw new SecretNotFoundError(`secret ${name}: not in secrets file ${path}`);
      const value = all[name];
      if (!isPlainObject(value))
        throw new SecretFormatError(`secret ${name} in ${path} must be a JSON object`);
      return redacted(value);
    },
  };
}

/** Secrets from AWS Secrets Manager, as `<prefix><name>` (e.g. prefix `placid/`). */
export function secretsManagerSecrets(
  client: SecretsManagerLike,
  options: { prefix?: string } = {},
): SecretsProvider {
  return {
    async loadSecret(name) {
      const secretId = `${options.prefix ?? ''}${checkedName(name)}`;
      let text: string;
      try {
        text = await client.getSecretValue(secretId);
      } catch (error) {
        if (error instanceof SecretFormatError) throw error;
        const code = (error as { name?: string }).name ?? 'Error';
        const message = `secret ${name}: Secrets Manager could not return ${secretId} (${code})`;
        // Only a missing secret lets firstFoundSecrets try the next provider; other failures must surface.
        if (code === 'ResourceNotFoundException') throw new SecretNotFoundError(message, { cause: error });
        throw new SecretUnavailableError(message, { cause: error });
      }
      return parseSecret(text, `Secrets Manager secret ${secretId}`);
    },
  };
}

/** Tries each provider in order; the first that has the secret wins (e.g. env, then file). */
export function firstFoundSecrets(...providers: SecretsProvider[]): SecretsProvider {
  return {
    async loadSecret(name) {
      const misses: string[] = [];
      for (const provider of providers) {
        try {
          return await provider.loadSecret(name);
        } catch (error) {
          if (!(error instanceof SecretNotFoundError)) throw error;
          misses.push(error.message);
        }
      }
      throw new SecretNotFoundError(misses.join('; ') || `secret ${name}: no secrets provider configured`);
    },
  };
}

function parseSecret(text: string, where: string): Secret {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SecretFormatError(`${where} is not valid JSON`);
  }
  if (!isPlainObject(value)) throw new SecretFormatError(`${where} must hold a JSON object`);
  return redacted(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkedName(name: string): string {
  if (!SECRET_NAME.test(name)) {
    throw new SecretFormatError(
      `secret name ${JSON.stringify(name)} must be letters, digits, '_', '.', '/' or '-'`,
    );
  }
  return name;
}
