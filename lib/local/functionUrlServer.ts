/**
 * A Lambda Function URL on a local port: each HTTP request becomes the payload-2.0 event the URL
 * would deliver, the real handler runs, and its result becomes the HTTP response. `placid serve`
 * puts the schedule stage's handler behind it, so local clients speak exactly the deployed API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, LambdaFunctionURLEvent, LambdaFunctionURLResult } from 'aws-lambda';
import { makeLambdaContext } from './lambdaContext.js';

export type UrlHandler = (
  event: LambdaFunctionURLEvent,
  context: Context,
) => Promise<LambdaFunctionURLResult>;

export interface FunctionUrlServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The function name in each invocation's context (log lines carry it). */
  functionName: string;
}

/** Lambda's own synchronous payload limit: a larger body never reaches a real Function URL either. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

export interface FunctionUrlServer {
  /** `http://host:port` as bound (the real port when 0 was asked for). */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, then closes every connection. */
  close(): Promise<void>;
}

/** Listens on `options.host:port` and answers every request through `handler`. */
export async function startFunctionUrlServer(
  handler: UrlHandler,
  options: FunctionUrlServerOptions,
): Promise<FunctionUrlServer> {
  const server = createServer((req, res) => {
    serve(handler, options.functionName, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'InternalError', message: String(error) } }));
    });
  });
  // Keep-alive connections are reused by clients (the Nova plug-in's per-process session).
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return { url: `http://${host}:${port}`, close: () => closeGracefully(server) };
}

async function serve(
  handler: UrlHandler,
  functionName: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req);
  if (body === null) {
    res.writeHead(413, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { type: 'PayloadTooLarge', message: `bodies are limited to ${MAX_BODY_BYTES} bytes` },
      }),
    );
    return;
  }
  const result = await handler(urlEvent(req, body), makeLambdaContext({ functionName }));
  if (typeof result === 'string') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(result);
    return;
  }
  const text =
    result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? '');
  res.writeHead(result.statusCode ?? 200, stringHeaders(result.headers));
  res.end(text);
}

/** The body, or null when it is larger than MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function urlEvent(req: IncomingMessage, body: Buffer): LambdaFunctionURLEvent {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const text = isText(headers['content-type']);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    // Text as text, as the Function URL does for JSON content; anything else base64, as it does too.
    body: body.length === 0 ? undefined : body.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: body.length > 0 && !text,
    requestContext: {
      accountId: 'anonymous',
      apiId: 'placid-serve',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'placid-serve',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

function isText(contentType: string | undefined): boolean {
  return contentType === undefined || /^(application\/json|text\/)/i.test(contentType);
}

function stringHeaders(
  headers: Record<string, string | number | boolean> | undefined,
): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, String(v)]));
}

function closeGracefully(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // close() waits for in-flight requests; idle keep-alive connections would hold it open.
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
