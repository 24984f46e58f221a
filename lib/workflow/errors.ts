/**
 * Every condition the migration workflow can Retry or Catch, one class each. `name` is a literal
 * (a minifier may rename classes) because it is the Step Functions `ErrorEquals` key; `retryable`
 * says whether the state machine retries it with backoff. The groups at the bottom are what the
 * state machine definition (lib/infra/workflowDefinition.ts) wires into Retry and Catch.
 */
import { PlacidError } from '../model/errors.js';

export abstract class WorkflowError extends PlacidError {
  abstract readonly retryable: boolean;
}

abstract class TransientError extends WorkflowError {
  readonly retryable = true;
}

abstract class PermanentError extends WorkflowError {
  readonly retryable = false;
}

/** A source/destination host slot or a global budget slot is held by other migrations: wait. */
export class LeaseBusyError extends TransientError {
  override name = 'LeaseBusyError';
}
/** Nova or Keystone did not answer usefully (5xx, 429, timeout, no connection). */
export class NovaUnavailableError extends TransientError {
  override name = 'NovaUnavailableError';
}
/** Nova answered 409: the server is busy with another task (task_state set, locked). */
export class ServerBusyError extends TransientError {
  override name = 'ServerBusyError';
}
/** The Kubernetes API did not answer usefully (5xx, 429, timeout). */
export class KubernetesUnavailableError extends TransientError {
  override name = 'KubernetesUnavailableError';
}
/** A VM's Consul agent was unreachable or failed (5xx). The VM may be busy or rebooting. */
export class ConsulUnavailableError extends TransientError {
  override name = 'ConsulUnavailableError';
}
/** DynamoDB throttled or failed; the same write may succeed later. */
export class StoreUnavailableError extends TransientError {
  override name = 'StoreUnavailableError';
}
/** Nova reports the migration done but the server is still settling (task_state set). */
export class VerificationPendingError extends TransientError {
  override name = 'VerificationPendingError';
}
/**
 * An aborted migration is still `cancelling` (or refused the abort and is finishing): where the VM
 * ends up is not known yet, so the rollback keeps the leases and the node drained, and retries.
 */
export class MigrationSettlingError extends TransientError {
  override name = 'MigrationSettlingError';
}
/** Cleanup left a node cordoned or in maintenance; the outcome is recorded, the cleanup retried. */
export class CleanupIncompleteError extends TransientError {
  override name = 'CleanupIncompleteError';
}

/** The execution input is not a valid plan message; nothing can be done or recorded. */
export class InvalidMigrationInputError extends PermanentError {
  override name = 'InvalidMigrationInputError';
}
/** Another execution holds the VM's lease: this migration would be a second one of the same VM. */
export class VmLeaseHeldError extends PermanentError {
  override name = 'VmLeaseHeldError';
}
/** The plan expired before the migration could start. */
export class PlanExpiredError extends PermanentError {
  override name = 'PlanExpiredError';
}
/** A blackout window is open: no migration starts now. */
export class BlackoutWindowError extends PermanentError {
  override name = 'BlackoutWindowError';
}
/** The VM is no longer on the planned source host (moved by someone else). */
export class VmMovedError extends PermanentError {
  override name = 'VmMovedError';
}
/** The server cannot be live-migrated in its current state (not ACTIVE, deleted). */
export class ServerNotMigratableError extends PermanentError {
  override name = 'ServerNotMigratableError';
}
/** The destination no longer passes the placement engine with fresh state. */
export class DestinationRejectedError extends PermanentError {
  override name = 'DestinationRejectedError';
}
/** Nova refused a request for good (400, 403, 404, 406): retrying cannot help. */
export class NovaRequestError extends PermanentError {
  override name = 'NovaRequestError';
}
/**
 * Nova refused for lack of privilege (403, or a server read without `OS-EXT-SRV-ATTR:host`): the
 * credentials need the admin role or the policy in docs/deploy.md. Its own name, not a deferral,
 * so an alarm can match it and no migration is quietly marked Deferred.
 */
export class NovaPermissionError extends PermanentError {
  override name = 'NovaPermissionError';
}
/** Nova's migration ended in `error`, `failed` or `cancelled`. */
export class LiveMigrationFailedError extends PermanentError {
  override name = 'LiveMigrationFailedError';
}
/** The migration ran past Placid's own deadline and was aborted. */
export class MigrationDeadlineError extends PermanentError {
  override name = 'MigrationDeadlineError';
}
/** After the migration the server is not ACTIVE on the destination. */
export class VerificationFailedError extends PermanentError {
  override name = 'VerificationFailedError';
}
/** A PodDisruptionBudget still blocked an eviction (or pods did not go) at the drain deadline. */
export class DrainBlockedError extends PermanentError {
  override name = 'DrainBlockedError';
}
/** The node cannot be drained without losing pods, does not exist, or the API refused us. */
export class DrainRefusedError extends PermanentError {
  override name = 'DrainRefusedError';
}
/** The VM's report names a Kubernetes cluster the drivers' configuration does not know. */
export class UnknownClusterError extends PermanentError {
  override name = 'UnknownClusterError';
}
/**
 * The VM's Kubernetes node or Consul node is ambiguous or outside the agent's allowlists
 * (lib/workflow/targets.ts): nothing was touched, and the VM is not moved.
 */
export class DrainTargetRefusedError extends PermanentError {
  override name = 'DrainTargetRefusedError';
}
/** A Consul agent refused the change for good (TLS, ACL, wrong node). */
export class ConsulRefusedError extends PermanentError {
  override name = 'ConsulRefusedError';
}
/**
 * Cleanup failed for a reason retrying cannot fix (a 403, a node that does not exist): the
 * rollback ends at once in CleanupFailed, for an operator, instead of retrying for an hour.
 */
export class CleanupRefusedError extends PermanentError {
  override name = 'CleanupRefusedError';
}

/** Thrown only by acquire and recheck, before anything changed: the migration is deferred, not failed. */
export const DEFERRAL_ERRORS = [
  'VmLeaseHeldError',
  'LeaseBusyError',
  'PlanExpiredError',
  'BlackoutWindowError',
  'VmMovedError',
  'ServerNotMigratableError',
  'DestinationRejectedError',
] as const;

/** Transient failures of the systems a step talks to: retried with backoff by every step. */
export const SYSTEM_TRANSIENT_ERRORS = [
  'NovaUnavailableError',
  'KubernetesUnavailableError',
  'ConsulUnavailableError',
  'StoreUnavailableError',
] as const;

export const isDeferral = (errorName: string): boolean =>
  (DEFERRAL_ERRORS as readonly string[]).includes(errorName);

/** The request names no known step: the state machine and the handler are out of step (a deploy bug). */
export class UnknownStepError extends PermanentError {
  override name = 'UnknownStepError';
}
