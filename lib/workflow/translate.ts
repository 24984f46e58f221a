/**
 * Turns a driver's error into the workflow's own class, so Retry and Catch match one closed set of
 * names (lib/workflow/errors.ts). Each driver error says `retryable`; a few conditions get a class
 * of their own (409, a PDB that kept blocking). The driver error stays attached as `cause`.
 */
import { ConsulError } from '../drivers/consul/errors.js';
import {
  DrainTimeoutError,
  EvictionBlockedError,
  KubernetesError,
  UnknownKubernetesClusterError,
} from '../drivers/kubernetes/errors.js';
import { NovaConflictError, OpenStackError, OpenStackForbiddenError } from '../drivers/openstack/errors.js';
import { isRetryable } from '../model/failure.js';
import {
  ConsulRefusedError,
  ConsulUnavailableError,
  DrainBlockedError,
  DrainRefusedError,
  KubernetesUnavailableError,
  NovaPermissionError,
  NovaRequestError,
  NovaUnavailableError,
  ServerBusyError,
  StoreUnavailableError,
  UnknownClusterError,
  WorkflowError,
} from './errors.js';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Runs a driver call as `what`, translating its failure. Workflow errors pass through as they are. */
export async function guarded<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translate(what, error);
  }
}

export function translate(what: string, error: unknown): unknown {
  if (error instanceof WorkflowError) return error;
  const message = `${what}: ${messageOf(error)}`;
  const options = { cause: error };
  if (error instanceof NovaConflictError) return new ServerBusyError(message, options);
  if (error instanceof OpenStackForbiddenError) {
    return new NovaPermissionError(`${message} (${NOVA_POLICY_HINT})`, options);
  }
  if (error instanceof OpenStackError) {
    return error.retryable
      ? new NovaUnavailableError(message, options)
      : new NovaRequestError(message, options);
  }
  if (error instanceof UnknownKubernetesClusterError) return new UnknownClusterError(message, options);
  if (error instanceof EvictionBlockedError || error instanceof DrainTimeoutError) {
    return new DrainBlockedError(message, options);
  }
  if (error instanceof KubernetesError) {
    return error.retryable
      ? new KubernetesUnavailableError(message, options)
      : new DrainRefusedError(message, options);
  }
  if (error instanceof ConsulError) {
    return error.retryable
      ? new ConsulUnavailableError(message, options)
      : new ConsulRefusedError(message, options);
  }
  // What is left comes from the store (the AWS SDK): throttling, server faults, the network.
  if (isRetryable(error)) return new StoreUnavailableError(message, options);
  return error;
}

/** Where an operator learns what to grant; the message says it so the alarm does too. */
export const NOVA_POLICY_HINT =
  'the OpenStack credentials need the admin role or the Nova policy in docs/deploy.md "Permissions"';
