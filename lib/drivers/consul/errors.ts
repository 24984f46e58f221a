import { PlacidError } from '../../model/errors.js';

/**
 * Base of every Consul driver error. Each subclass sets `name` to a literal (not the class name,
 * which a minifier may rename) because Step Functions matches Retry/Catch on it.
 */
export class ConsulError extends PlacidError {
  /** True when the same call may succeed later without anyone changing anything. */
  readonly retryable: boolean = false;
}

/** No answer from the agent: refused, reset, unresolvable or timed out. The VM may be rebooting. */
export class ConsulUnreachableError extends ConsulError {
  override readonly retryable = true;
  constructor(
    readonly operation: string,
    readonly address: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Consul ${operation} on agent ${address}: agent unreachable: ${detail}`, options);
    this.name = 'ConsulUnreachableError';
  }
}

/** The agent's certificate was not trusted; retrying cannot help until the TLS settings change. */
export class ConsulTlsError extends ConsulError {
  constructor(
    readonly operation: string,
    readonly address: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Consul ${operation} on agent ${address}: TLS verification failed: ${detail}`, options);
    this.name = 'ConsulTlsError';
  }
}

/** The agent answered with an error status. Retryable for 5xx and 429; 403 means the ACL token lacks a permission. */
export class ConsulApiError extends ConsulError {
  override readonly retryable: boolean;
  constructor(
    readonly operation: string,
    readonly address: string,
    readonly status: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Consul ${operation} on agent ${address} failed: HTTP ${status}: ${detail}`, options);
    this.name = 'ConsulApiError';
    this.retryable = status === 429 || status >= 500;
  }
}

/** The agent at the reported address belongs to another node: acting on it would take the wrong VM out. */
export class ConsulNodeMismatchError extends ConsulError {
  constructor(
    readonly address: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `Consul agent ${address} is node ${actual}, not ${expected}; refusing to change its maintenance mode`,
    );
    this.name = 'ConsulNodeMismatchError';
  }
}

/**
 * 403: the ACL token lacks the permission this call needs. Not retryable: only a policy change
 * helps, and a rollback must not spend an hour retrying it.
 */
export class ConsulPermissionError extends ConsulError {
  constructor(
    readonly operation: string,
    readonly address: string,
    /** What the call needs, in Consul's terms (`node:write on web-1`), with the fix. */
    readonly needed: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Consul ${operation} on agent ${address}: the ACL token lacks ${needed}: ${detail}`, options);
    this.name = 'ConsulPermissionError';
  }
}
