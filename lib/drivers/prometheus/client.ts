/**
 * A Prometheus HTTP API client: instant and range queries (POST, so long PromQL fits), basic or
 * bearer auth, TLS options, a timeout per attempt, and retries with full-jitter backoff on
 * overload, timeouts and network failures. Warnings in an answer (a partial result) are returned,
 * not dropped. Credentials live in private fields and are scrubbed from error messages.
 */
import { inspect } from 'node:util';
import { parseRetryAfter } from '../../model/backoff.js';
import { ConfigError, RequestError } from '../../model/errors.js';
import { basicAuthSecrets, scrubSecrets } from '../redact.js';
import { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from '../retry.js';
import { PrometheusError } from './errors.js';
import { parseQueryResponse, type QueryResult } from './response.js';
import { nodeTransport, type TlsOptions, type Transport } from './transport.js';

export type { QueryResult } from './response.js';

export type PrometheusAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string };

export interface PrometheusClientOptions {
  /** Base URL, e.g. `https://prometheus.example.com` or `https://gw.example.com/prometheus`. */
  url: string;
  auth?: PrometheusAuth;
  tls?: TlsOptions;
  /** Extra headers on every request, e.g. `X-Scope-OrgID` for a multi-tenant Mimir or Cortex. */
  headers?: Record<string, string>;
  /** Per attempt, for the whole HTTP exchange; also sent to Prometheus as its query timeout. Default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injectable for tests; default node:http(s) with the TLS options. */
  transport?: Transport;
}

export interface RangeQuery {
  start: Date;
  end: Date;
  stepSeconds: number;
}

export const DEFAULT_PROMETHEUS_TIMEOUT_MS = 30_000;
/** Prometheus refuses ranges of more than 11,000 points per series. */
export const MAX_POINTS_PER_SERIES = 11_000;

export class PrometheusClient {
  readonly url: string;
  readonly #auth: PrometheusAuth;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #transport: Transport;

  constructor(options: PrometheusClientOptions) {
    if (!/^https?:\/\/[^/]/.test(options.url) || !URL.canParse(options.url)) {
      throw new ConfigError(`prometheus url ${JSON.stringify(options.url)} is not an http(s) URL`);
    }
    this.url = options.url.replace(/\/+$/, '');
    this.#auth = options.auth ?? { kind: 'none' };
    this.#headers = { ...options.headers };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PROMETHEUS_TIMEOUT_MS;
    if (!(Number.isFinite(this.#timeoutMs) && this.#timeoutMs >= 1)) {
      throw new ConfigError(`prometheus timeoutMs must be a number of ms >= 1, got ${options.timeoutMs}`);
    }
    this.#retry = { ...DEFAULT_DRIVER_RETRY, ...options.retry };
    this.#transport = options.transport ?? nodeTransport(options.tls);
  }

  /** Closes the keep-alive connections of its own transport (a given transport is the caller's). */
  close(): void {
    (this.#transport as Transport & { close?: () => void }).close?.();
  }

  /** `/api/v1/query`: the value of each series at `at`. */
  instantQuery(query: string, at: Date): Promise<QueryResult> {
    return this.#post('/api/v1/query', { query: checkQuery(query), time: seconds(at) });
  }

  /** `/api/v1/query_range`: each series at every step from start to end, both included. */
  rangeQuery(query: string, range: RangeQuery): Promise<QueryResult> {
    const { start, end, stepSeconds } = range;
    if (!(stepSeconds > 0) || end.getTime() < start.getTime()) {
      throw new RequestError(`range query needs start <= end and a step > 0, got step ${stepSeconds}`);
    }
    const points = (end.getTime() - start.getTime()) / 1000 / stepSeconds + 1;
    if (points > MAX_POINTS_PER_SERIES) {
      throw new RequestError(
        `range query would return ${Math.ceil(points)} points per series; Prometheus allows ${MAX_POINTS_PER_SERIES}`,
      );
    }
    return this.#post('/api/v1/query_range', {
      query: checkQuery(query),
      start: seconds(start),
      end: seconds(end),
      step: String(stepSeconds),
    });
  }

  #post(path: string, params: Record<string, string>): Promise<QueryResult> {
    const body = new URLSearchParams({ ...params, timeout: `${Math.ceil(this.#timeoutMs / 1000)}s` });
    return retryIdempotent(async () => {
      try {
        const response = await this.#transport({
          url: new URL(this.url + path),
          method: 'POST',
          headers: {
            ...this.#headers,
            ...this.#authHeader(),
            Accept: 'application/json',
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: body.toString(),
          timeoutMs: this.#timeoutMs,
        });
        return parseQueryResponse(path, response.status, response.text, retryAfterMs(response.headers), (t) =>
          this.#scrub(t),
        );
      } catch (error) {
        if (error instanceof PrometheusError) error.message = this.#scrub(error.message);
        throw error;
      }
    }, this.#retry);
  }

  #authHeader(): Record<string, string> {
    const auth = this.#auth;
    if (auth.kind === 'basic') {
      const pair = Buffer.from(`${auth.username}:${auth.password}`).toString('base64');
      return { Authorization: `Basic ${pair}` };
    }
    return auth.kind === 'bearer' ? { Authorization: `Bearer ${auth.token}` } : {};
  }

  #scrub(message: string): string {
    const auth = this.#auth;
    const secrets =
      auth.kind === 'basic'
        ? basicAuthSecrets(auth.username, auth.password)
        : auth.kind === 'bearer'
          ? [auth.token]
          : [];
    return scrubSecrets(message, secrets);
  }

  toJSON(): object {
    return { url: this.url, auth: this.#auth.kind === 'none' ? 'none' : '[redacted]' };
  }

  [inspect.custom](): string {
    return `PrometheusClient { url: '${this.url}', auth: ${this.#auth.kind === 'none' ? 'none' : '[redacted]'} }`;
  }
}

function checkQuery(query: string): string {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new RequestError('a PromQL query must be a non-empty string');
  }
  return query;
}

function seconds(date: Date): string {
  return (date.getTime() / 1000).toFixed(3);
}

function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers['retry-after'];
  return typeof value === 'string' ? parseRetryAfter(value, Date.now()) : undefined;
}
