/**
 * Drivers whose credentials can be rotated under a running process. A driver is connected from its
 * secret and reused (its Keystone token, its keep-alive connections), but the secret is read again
 * after `maxAgeMs`, and at once when a system rejects the credentials (401/403): if the secret
 * changed, the driver is rebuilt and the rejected call made once more with the new credentials.
 * An unchanged secret means a real permission problem, and the error goes to the caller as is.
 *
 * Not Powertools Parameters' `getSecret({ maxAge })`: it covers Secrets Manager only, while the
 * same drivers read their secrets from the environment or a file on an agent host and in the CLI
 * (credentials.ts), and it could not tell a rejected credential from any other failure. Above all,
 * it caches the secret's text, while what lives long is the client built from it (its Keystone
 * token, its connections): a fresh secret helps only if the client is rebuilt, which is what the
 * age here decides. The cache sits above every SecretsProvider and adds the re-read on rejection;
 * it is one more dependency fewer.
 */
import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../model/clock.js';
import { ConsulPermissionError } from './consul/errors.js';
import type { Secret } from './credentials.js';
import { KubernetesApiError } from './kubernetes/errors.js';
import { KeystoneAuthError, OpenStackForbiddenError } from './openstack/errors.js';

/** How long a secret is trusted before it is read again. */
export const DEFAULT_SECRET_MAX_AGE_MS = 15 * 60_000;

export interface RotationOptions {
  maxAgeMs?: number;
  /** When a secret was read; injectable so tests can move time. */
  clock?: Pick<Clock, 'now'>;
}

/** True for errors that say "these credentials are not (or no longer) accepted". */
function isCredentialRejection(error: unknown): boolean {
  if (error instanceof KeystoneAuthError) return error.status === 401;
  if (error instanceof OpenStackForbiddenError) return true;
  if (error instanceof KubernetesApiError) return error.status === 401 || error.status === 403;
  return error instanceof ConsulPermissionError;
}

interface Loaded<T> {
  fingerprint: string;
  driver: T;
  readAtMs: number;
}

/** A getter of the driver built from the secret, re-read as described above. */
export function rotatingDriver<T extends object>(
  readSecret: () => Promise<Secret>,
  connect: (secret: Secret) => Promise<T>,
  options: RotationOptions = {},
): () => Promise<T> {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_SECRET_MAX_AGE_MS;
  const clock = options.clock ?? systemClock;
  let current: Loaded<T> | undefined;
  let pending: Promise<Loaded<T>> | undefined;

  const reload = (): Promise<Loaded<T>> => {
    pending ??= (async () => {
      const secret = await readSecret();
      const fingerprint = fingerprintOf(secret);
      // Unchanged: keep the driver (and its token); only the age starts again.
      if (current && current.fingerprint === fingerprint) current = { ...current, readAtMs: clock.now() };
      else current = { fingerprint, driver: await connect(secret), readAtMs: clock.now() };
      return current;
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  const fresh = async (): Promise<Loaded<T>> =>
    current && clock.now() - current.readAtMs < maxAgeMs ? current : reload();

  return async () => {
    const used = await fresh();
    return retryingOnRotation(used, reload);
  };
}

/** The driver, with each async method retried once on a rejection if the secret has changed since. */
function retryingOnRotation<T extends object>(used: Loaded<T>, reload: () => Promise<Loaded<T>>): T {
  return new Proxy(used.driver, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.catch(async (error: unknown) => {
          if (!isCredentialRejection(error)) throw error;
          const next = await reload();
          if (next.fingerprint === used.fingerprint) throw error;
          const method = Reflect.get(next.driver, property, next.driver) as (...a: unknown[]) => unknown;
          return method.apply(next.driver, args);
        });
      };
    },
  });
}

function fingerprintOf(secret: Secret): string {
  // A spread drops the non-enumerable toJSON that makes a redacted secret print as [redacted].
  return createHash('sha256')
    .update(JSON.stringify({ ...secret }))
    .digest('hex');
}

/**
 * For a process that builds several clients from several secrets at once (the collector Lambda):
 * the result of `connect` is reused until it is `maxAgeMs` old, then made again, so a rotated
 * secret is read within that age; a failed `connect` is not kept, so the next call tries again.
 */
export function reconnectingAfter<T>(
  connect: () => Promise<T>,
  options: RotationOptions = {},
): () => Promise<T> {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_SECRET_MAX_AGE_MS;
  const clock = options.clock ?? systemClock;
  let current: { value: Promise<T>; madeAtMs: number } | undefined;
  return () => {
    if (current === undefined || clock.now() - current.madeAtMs >= maxAgeMs) {
      const made = { value: connect(), madeAtMs: clock.now() };
      made.value.catch(() => {
        if (current === made) current = undefined;
      });
      current = made;
    }
    return current.value;
  };
}
