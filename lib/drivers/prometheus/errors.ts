/**
 * Errors of the Prometheus driver. `retryable` says whether the same query may succeed later, so
 * the client retries overload and network failures but never a query Prometheus called invalid.
 * Messages name the API path and the status, never the credentials.
 */
import { PlacidError } from '../../model/errors.js';

export class PrometheusError extends PlacidError {
  readonly retryable: boolean = false;
}

/** Prometheus answered with an error status: `errorType` is Prometheus's own (bad_data, timeout, …). */
export class PrometheusApiError extends PrometheusError {
  override readonly retryable: boolean;
  constructor(
    readonly path: string,
    readonly status: number,
    readonly errorType: string,
    detail: string,
    /** From `Retry-After` on 429/503. */
    readonly retryAfterMs?: number,
  ) {
    super(`prometheus ${path} failed with ${status} (${errorType}): ${detail}`);
    // 4xx is the query's fault (bad PromQL, bad auth); 5xx, 429 and query timeouts may pass.
    this.retryable = status >= 500 || status === 429 || errorType === 'timeout';
  }
}

/** The HTTP exchange did not finish within the client's timeout. */
export class PrometheusTimeoutError extends PrometheusError {
  override readonly retryable = true;
  constructor(
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`prometheus ${path} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed: refused, reset, DNS, or a TLS certificate that does not verify. */
export class PrometheusNetworkError extends PrometheusError {
  override readonly retryable: boolean;
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`prometheus ${path} could not connect: ${reason}`, options);
    // A certificate problem will not fix itself between retries.
    this.retryable = !/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(reason);
  }
}

/** A 2xx answer that is not the documented `{status, data}` document. */
export class PrometheusResponseError extends PrometheusError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`prometheus ${path} returned an unexpected body: ${problem}`);
  }
}
