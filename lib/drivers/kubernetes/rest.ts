/**
 * One JSON request to the Kubernetes API over Node's http(s): the handful of calls a drain makes
 * do not need the generated client (about 1.5 MB of bundle for these five endpoints).
 */
import http from 'node:http';
import https from 'node:https';
import type { ClusterAccess } from './access.js';

/** A non-2xx answer, with its body (usually a metav1.Status) as text. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
}

export interface RestRequest {
  method: 'GET' | 'PATCH' | 'POST';
  /** Below the server URL, e.g. `/api/v1/nodes/n1`; segments already encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Default application/json. */
  contentType?: string;
}

/**
 * Sends `request` and resolves the parsed body of a 2xx answer.
 * @throws HttpStatusError for any other status; the transport's own error (a timeout is an
 * AbortError) when no complete answer arrived within `timeoutMs`.
 */
export async function restRequest(
  access: ClusterAccess,
  request: RestRequest,
  timeoutMs: number,
): Promise<unknown> {
  const url = new URL(access.server.replace(/\/+$/, '') + request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const options = await access.requestOptions();
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  // Both kinds of access give headers as an object, never in the raw-array form.
  const headers: http.OutgoingHttpHeaders = {
    Accept: 'application/json',
    ...(options.headers as http.OutgoingHttpHeaders | undefined),
  };
  if (payload !== undefined) {
    headers['Content-Type'] = request.contentType ?? 'application/json';
    headers['Content-Length'] = Buffer.byteLength(payload);
  }
  const send = url.protocol === 'http:' ? http.request : https.request;
  const text = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = send(
      url,
      { ...options, method: request.method, headers, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
  if (text.status < 200 || text.status > 299) throw new HttpStatusError(text.status, text.body);
  try {
    return text.body === '' ? undefined : JSON.parse(text.body);
  } catch {
    throw new Error(`the ${text.status} answer is not JSON`);
  }
}

/** One path segment (a node, namespace or pod name), encoded. */
export const segment = (value: string): string => encodeURIComponent(value);
