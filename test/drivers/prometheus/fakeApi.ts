/** A scripted stand-in for the Prometheus HTTP API (http or https), recording what clients send. */
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface Recorded {
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
}

export const FIXTURES = join(import.meta.dirname, 'fixtures');

export async function startFakeApi(replies: Reply[] | ((n: number) => Reply), tls = false) {
  const requests: Recorded[] = [];
  const next = (n: number): Reply =>
    typeof replies === 'function' ? replies(n) : (replies[Math.min(n, replies.length - 1)] ?? {});
  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({
      path: request.url ?? '',
      headers: request.headers,
      form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
    });
    const reply = next(requests.length - 1);
    if (reply.hang) return;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? success([]));
    response.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...reply.headers });
    response.end(text);
  };
  const server = tls
    ? createHttps(
        {
          cert: readFileSync(join(FIXTURES, 'loopback.crt')),
          key: readFileSync(join(FIXTURES, 'loopback.key')),
        },
        handler,
      )
    : createHttp(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A vector answer. */
export function success(result: unknown[], warnings?: string[]) {
  return { status: 'success', data: { resultType: 'vector', result }, ...(warnings ? { warnings } : {}) };
}

export function failure(errorType: string, error: string) {
  return { status: 'error', errorType, error };
}
