/**
 * One HTTP exchange over node:http / node:https. Not the global fetch: fetch cannot take a CA or
 * skip certificate checks per client without undici's Agent, which this project does not ship; an
 * https.Agent can. The timeout covers the whole exchange, body included.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { PrometheusNetworkError, PrometheusTimeoutError } from './errors.js';

export interface TlsOptions {
  /** PEM text of the CA bundle to trust instead of the system's. */
  ca?: string;
  /** Accept any certificate. Only for test setups: it allows a man in the middle. */
  insecureSkipVerify?: boolean;
}

export interface TransportRequest {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A transport with keep-alive connections and, for https, the given TLS settings; `close` ends them. */
export function nodeTransport(tls: TlsOptions = {}): Transport & { close(): void } {
  const httpAgent = new HttpAgent({ keepAlive: true });
  const httpsAgent = new HttpsAgent({
    keepAlive: true,
    ca: tls.ca,
    rejectUnauthorized: !tls.insecureSkipVerify,
  });
  const transport: Transport = (request) =>
    exchange(request, request.url.protocol === 'https:' ? httpsAgent : httpAgent);
  return Object.assign(transport, {
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}

function exchange(request: TransportRequest, agent: HttpAgent | HttpsAgent): Promise<TransportResponse> {
  const path = request.url.pathname;
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(request.timeoutMs);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      if (signal.aborted) reject(new PrometheusTimeoutError(path, request.timeoutMs));
      else reject(new PrometheusNetworkError(path, reasonOf(error), { cause: error }));
    };
    const outgoing = send(
      request.url,
      { method: request.method, headers: request.headers, agent, signal },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', fail);
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', fail);
    outgoing.end(request.body);
  });
}

function reasonOf(error: Error): string {
  const code = (error as { code?: string }).code;
  return code ? `${code}: ${error.message}` : error.message;
}
