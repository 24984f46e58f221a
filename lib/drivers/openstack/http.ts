/**
 * One HTTP exchange with an OpenStack API over the global `fetch`: JSON in and out, a timeout on
 * the whole exchange (body included), and every failure turned into a typed error that names the
 * call but carries no credentials.
 */
import type * as z from 'zod';
import { parseRetryAfter } from '../../model/backoff.js';
import { scrubSecrets } from '../redact.js';
import {
  apiErrorFor,
  type CallSite,
  OpenStackNetworkError,
  OpenStackResponseError,
  type OpenStackService,
  OpenStackTimeoutError,
} from './errors.js';
import { errorBodySchema } from './schemas.js';

export type FetchLike = typeof fetch;

export interface HttpRequest {
  service: OpenStackService;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON when present. */
  body?: unknown;
  timeoutMs: number;
  fetch?: FetchLike;
  /** Blanks secrets (passwords, tokens) out of an error message the API sent back. */
  redact?: (message: string) => string;
  /**
   * Never put the answer's body into an error: an authentication call's answer may echo the
   * credentials in encodings no scrubbing can foresee. The status alone is reported.
   */
  withholdErrorBody?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

const MAX_MESSAGE_CHARS = 400;

/** Sends one request; resolves for 2xx, throws a typed OpenStack error otherwise. */
export async function sendRequest(request: HttpRequest): Promise<HttpResponse> {
  const url = new URL(request.url);
  const site: CallSite = {
    service: request.service,
    method: request.method,
    path: url.pathname + url.search,
  };
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  let status: number;
  let responseHeaders: Headers;
  let text: string;
  try {
    const response = await (request.fetch ?? fetch)(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    status = response.status;
    responseHeaders = response.headers;
    text = await response.text();
  } catch (error) {
    throw transportError(error, site, request.timeoutMs);
  }
  if (status < 200 || status >= 300) {
    // Scrub the whole message first: truncating first could leave a fragment of a secret behind.
    const message = request.withholdErrorBody
      ? `HTTP ${status} (the answer is not shown: it may echo the credentials)`
      : truncate((request.redact ?? ((m: string) => m))(errorMessage(text, status)));
    const requestId =
      responseHeaders.get('x-openstack-request-id') ?? responseHeaders.get('x-compute-request-id');
    throw apiErrorFor(site, status, message, requestId ?? undefined, retryAfterMs(responseHeaders));
  }
  return { status, headers: responseHeaders, body: parseJson(text, site) };
}

/** Validates a response body against its schema, naming the first fields that did not match. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  response: HttpResponse,
  site: CallSite,
): z.output<S> {
  const result = schema.safeParse(response.body);
  if (result.success) return result.data;
  const issues = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new OpenStackResponseError(site, issues);
}

function transportError(error: unknown, site: CallSite, timeoutMs: number): Error {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return new OpenStackTimeoutError(site, timeoutMs);
  // undici reports "fetch failed" and puts the system error (ECONNREFUSED, …) in `cause`.
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new OpenStackNetworkError(site, reason, { cause: error });
}

function parseJson(text: string, site: CallSite): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new OpenStackResponseError(site, 'body is not JSON');
  }
}

function errorMessage(text: string, status: number): string {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    const first = parsed.success ? Object.values(parsed.data)[0] : undefined;
    if (first) return first.message;
  } catch {
    // Not JSON (a proxy's HTML page, say): fall back to the raw text.
  }
  const raw = text.replace(/\s+/g, ' ').trim();
  return raw === '' ? `HTTP ${status}` : raw;
}

function truncate(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
}

/**
 * Blanks out secrets an API might echo back (a misconfigured proxy can reflect the request), in
 * every encoding they could come back in.
 */
export function scrub(message: string, secrets: readonly string[]): string {
  return scrubSecrets(message, secrets);
}

function retryAfterMs(headers: Headers): number | undefined {
  return parseRetryAfter(headers.get('retry-after'), Date.now());
}
