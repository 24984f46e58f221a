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
 *
 * A driver replaced after a rotation is closed (its `close()`, when it has one: keep-alive agents
 * and their sockets) once the calls made through it have settled, so a long-running agent does not
 * keep one set of idle connections per rotation.
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
  /** Calls made through it that have not settled yet. */
  inFlight: number;
  /** Replaced by a driver from a newer secret: closed whenever nothing is in flight. */
  retired: boolean;
}

/** Something a driver may hold open (keep-alive agents); closing twice must be harmless. */
interface Closable {
  close(): void | Promise<void>;
}

function isClosable(driver: unknown): driver is Closable {
  return typeof (driver as Partial<Closable>)?.close === 'function';
}

/** Closes a retired driver with nothing in flight; again after each late call, which may reopen sockets. */
function closeIfIdle<T>(loaded: Loaded<T>): void {
  if (!loaded.retired || loaded.inFlight > 0 || !isClosable(loaded.driver)) return;
  // A failure to close only leaves sockets to the server's idle timeout: never the caller's problem.
  Promise.resolve()
    .then(() => (loaded.driver as Closable).close())
    .catch(() => {});
}

/** Runs `call` counted as in flight on `loaded`. */
function tracked<T, R>(loaded: Loaded<T>, call: () => R): R {
  loaded.inFlight++;
  let result: R;
  try {
    result = call();
  } catch (error) {
    loaded.inFlight--;
    closeIfIdle(loaded);
    throw error;
  }
  if (!(result instanceof Promise)) {
    loaded.inFlight--;
    closeIfIdle(loaded);
    return result;
  }
  return result.finally(() => {
    loaded.inFlight--;
    closeIfIdle(loaded);
  }) as R;
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
      if (current && current.fingerprint === fingerprint) {
        current.readAtMs = clock.now();
        return current;
      }
      const previous = current;
      current = {
        fingerprint,
        driver: await connect(secret),
        readAtMs: clock.now(),
        inFlight: 0,
        retired: false,
      };
      if (previous) {
        previous.retired = true;
        closeIfIdle(previous);
      }
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
        const result = tracked(used, () => value.apply(target, args));
        if (!(result instanceof Promise)) return result;
        return result.catch(async (error: unknown) => {
          if (!isCredentialRejection(error)) throw error;
          const next = await reload();
          if (next.fingerprint === used.fingerprint) throw error;
          const method = Reflect.get(next.driver, property, next.driver) as (...a: unknown[]) => unknown;
          return tracked(next, () => method.apply(next.driver, args));
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
 * `close` is given the value replaced. It is called at once: this suits callers that use one value
 * at a time and are done with it when they ask again, as a Lambda container runs one invocation
 * at a time.
 */
export function reconnectingAfter<T>(
  connect: () => Promise<T>,
  options: RotationOptions & { close?: (replaced: T) => void | Promise<void> } = {},
): () => Promise<T> {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_SECRET_MAX_AGE_MS;
  const clock = options.clock ?? systemClock;
  let current: { value: Promise<T>; madeAtMs: number } | undefined;
  return () => {
    if (current === undefined || clock.now() - current.madeAtMs >= maxAgeMs) {
      // A failed connect never resolves here, and a closing failure only leaves idle sockets.
      if (current && options.close) current.value.then(options.close).catch(() => {});
      const made = { value: connect(), madeAtMs: clock.now() };
      made.value.catch(() => {
        if (current === made) current = undefined;
      });
      current = made;
    }
    return current.value;
  };
}
