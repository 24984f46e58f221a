/**
 * Errors of the OpenStack drivers. Each condition a workflow may Retry or Catch has its own class,
 * because the class name is the Step Functions `ErrorEquals` key. Messages name the service, the
 * method and the URL path, never a host's credentials, a token or a request body.
 */
import { PlacidError } from '../../model/errors.js';

export type OpenStackService = 'identity' | 'compute' | 'placement';

/** Base of every OpenStack driver error; `retryable` says whether the same call may succeed later. */
export class OpenStackError extends PlacidError {
  readonly retryable: boolean = false;
}

/** Where a failed call went: enough to find it in the API's logs, nothing secret. */
export interface CallSite {
  service: OpenStackService;
  method: string;
  /** URL path (and query) only: no scheme, host or credentials. */
  path: string;
}

/** Keystone refused the credentials or returned no token (4xx from POST /v3/auth/tokens). */
export class KeystoneAuthError extends OpenStackError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(`Keystone authentication failed: ${message}`);
  }
}

/** The service catalog has no (or more than one) endpoint matching the requested type/interface/region. */
export class EndpointNotFoundError extends OpenStackError {}

/** An HTTP error response from an OpenStack API, with the API's own explanation. */
export class OpenStackApiError extends OpenStackError {
  readonly service: OpenStackService;
  readonly method: string;
  readonly path: string;
  constructor(
    site: CallSite,
    readonly status: number,
    /** The API's explanation (Nova `{<fault>: {message}}`, Keystone `{error: {message}}`), scrubbed. */
    readonly apiMessage: string,
    /** `x-openstack-request-id` / `x-compute-request-id`, to find the call in the service logs. */
    readonly requestId?: string,
  ) {
    const request = requestId ? ` (request ${requestId})` : '';
    super(`${site.service} ${site.method} ${site.path} failed with ${status}: ${apiMessage}${request}`);
    this.service = site.service;
    this.method = site.method;
    this.path = site.path;
  }
}

/** 400: the request is invalid for the current state (e.g. aborting a migration that is not running). */
export class OpenStackBadRequestError extends OpenStackApiError {}

/** 401 even after re-authenticating, or 403: the credentials lack the role the policy demands. */
export class OpenStackForbiddenError extends OpenStackApiError {}

/** 404: the server or migration does not exist (any more). */
export class OpenStackNotFoundError extends OpenStackApiError {}

/** 406: the cloud does not support the requested compute microversion. */
export class MicroversionNotSupportedError extends OpenStackApiError {}

/** 409: Nova refuses because of the server's state (task_state busy, locked, wrong vm_state). */
export class NovaConflictError extends OpenStackApiError {}

/** 5xx or 429: the API is overloaded or failing; the same call may succeed later. */
export class OpenStackUnavailableError extends OpenStackApiError {
  override readonly retryable = true;
  constructor(
    site: CallSite,
    status: number,
    apiMessage: string,
    requestId?: string,
    /** From `Retry-After`, when the API said how long to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(site, status, apiMessage, requestId);
  }
}

/** The call did not finish within its timeout. A POST may or may not have taken effect. */
export class OpenStackTimeoutError extends OpenStackError {
  override readonly retryable = true;
  constructor(
    readonly site: CallSite,
    readonly timeoutMs: number,
  ) {
    super(`${site.service} ${site.method} ${site.path} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed (refused, reset, DNS): nothing was answered. */
export class OpenStackNetworkError extends OpenStackError {
  override readonly retryable = true;
  constructor(
    readonly site: CallSite,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${site.service} ${site.method} ${site.path} could not connect: ${reason}`, options);
  }
}

/** A 2xx response whose body is not what the API reference promises (not JSON, fields missing). */
export class OpenStackResponseError extends OpenStackError {
  constructor(
    readonly site: CallSite,
    problem: string,
  ) {
    super(`${site.service} ${site.method} ${site.path} returned an unexpected body: ${problem}`);
  }
}

type ApiErrorClass = new (
  site: CallSite,
  status: number,
  apiMessage: string,
  requestId?: string,
) => OpenStackApiError;

const CLASS_BY_STATUS: Record<number, ApiErrorClass> = {
  400: OpenStackBadRequestError,
  401: OpenStackForbiddenError,
  403: OpenStackForbiddenError,
  404: OpenStackNotFoundError,
  406: MicroversionNotSupportedError,
  409: NovaConflictError,
};

/** The typed error for an HTTP error status. */
export function apiErrorFor(
  site: CallSite,
  status: number,
  apiMessage: string,
  requestId?: string,
  retryAfterMs?: number,
): OpenStackApiError {
  if (status >= 500 || status === 429) {
    return new OpenStackUnavailableError(site, status, apiMessage, requestId, retryAfterMs);
  }
  const ErrorClass = CLASS_BY_STATUS[status] ?? OpenStackApiError;
  return new ErrorClass(site, status, apiMessage, requestId);
}
