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
  /** Requests handled at once at most; the next is answered 503 with Retry-After. Default 64. */
  maxInFlight?: number;
  /**
   * Request body bytes held at once at most (default 16 MiB): a request that would go over is
   * answered 503 with Retry-After unless it is the only one, so a few huge requests cannot hold
   * every other caller behind their parsing and deciding.
   */
  maxBytesInFlight?: number;
  /** GET paths answered here, not by the handler (`placid serve`'s /health). */
  routes?: Readonly<Record<string, () => { status: number; body: unknown }>>;
}

/** Lambda's own synchronous payload limit: a larger body never reaches a real Function URL either. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
const DEFAULT_MAX_IN_FLIGHT = 64;
const DEFAULT_MAX_BYTES_IN_FLIGHT = 16 * 1024 * 1024;
/** Seconds a refused client should wait (the Retry-After of a 503). */
const RETRY_AFTER_SECONDS = 1;

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
  const admission = new Admission(
    options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
    options.maxBytesInFlight ?? DEFAULT_MAX_BYTES_IN_FLIGHT,
  );
  const server = createServer((req, res) => {
    serve(handler, options, admission, req, res).catch((error: unknown) => {
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
  options: FunctionUrlServerOptions,
  admission: Admission,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = requestUrl(req.url);
  if (!url) return refuse(res, 400, 'BadRequest', 'the request target is not a valid path or URL');
  const route = req.method === 'GET' ? options.routes?.[url.pathname] : undefined;
  if (route) {
    const { status, body } = route();
    return answer(res, status, body);
  }
  const declared = Number(req.headers['content-length']) || 0;
  if (declared > MAX_BODY_BYTES) return refuse(res, 413, 'PayloadTooLarge', tooLarge());
  const ticket = admission.admit(declared);
  if (!ticket) return busy(res);
  try {
    const body = await readBody(req, ticket);
    if (body === 'busy') return busy(res);
    if (body === null) return refuse(res, 413, 'PayloadTooLarge', tooLarge());
    const result = await handler(urlEvent(req, url, body), makeLambdaContext(options));
    if (typeof result === 'string') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(result);
      return;
    }
    const text =
      result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? '');
    res.writeHead(result.statusCode ?? 200, stringHeaders(result.headers));
    res.end(text);
  } finally {
    ticket.release();
  }
}

const tooLarge = () => `bodies are limited to ${MAX_BODY_BYTES} bytes`;

function busy(res: ServerResponse): void {
  refuse(
    res,
    503,
    'ServiceUnavailable',
    'too many requests in progress; retry after the Retry-After seconds',
    {
      'retry-after': String(RETRY_AFTER_SECONDS),
    },
  );
}

/** Answers without the handler: a refusal (the connection then closes) or a route's body. */
function answer(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, type: string, message: string, headers = {}): void {
  answer(res, status, { error: { type, message } }, { ...headers, connection: 'close' });
}

/** The request target as a URL, or undefined when it is none (`POST http://[`). */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/** What is being handled now: requests and their body bytes, each bounded. */
class Admission {
  private requests = 0;
  private bytes = 0;

  constructor(
    private readonly maxRequests: number,
    private readonly maxBytes: number,
  ) {}

  /** A ticket for a request declaring `declared` body bytes, or undefined when saturated. */
  admit(declared: number): Ticket | undefined {
    if (this.requests >= this.maxRequests || !this.fits(declared)) return undefined;
    this.requests++;
    this.bytes += declared;
    let held = declared;
    let released = false;
    return {
      grow: (size) => {
        if (size <= held) return true;
        if (this.requests > 1 && this.bytes + size - held > this.maxBytes) return false;
        this.bytes += size - held;
        held = size;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.requests--;
        this.bytes -= held;
      },
    };
  }

  /** A request alone is always taken (the body limit bounds it); beside others, within the bytes. */
  private fits(bytes: number): boolean {
    return this.requests === 0 || this.bytes + bytes <= this.maxBytes;
  }
}

interface Ticket {
  /** Accounts a body that turned out larger than declared; false when it no longer fits. */
  grow(size: number): boolean;
  release(): void;
}

/** The body; null when it is larger than MAX_BODY_BYTES, 'busy' when it outgrew the admission. */
async function readBody(req: IncomingMessage, ticket: Ticket): Promise<Buffer | null | 'busy'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    if (!ticket.grow(size)) return 'busy';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function urlEvent(req: IncomingMessage, url: URL, body: Buffer): LambdaFunctionURLEvent {
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
