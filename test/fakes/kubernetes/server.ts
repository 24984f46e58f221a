import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../../lib/model/clock.js';
import { FakeCluster } from './cluster.js';
import { statusJson } from './resources.js';
import { route } from './routes.js';

export { FakeCluster, type FakeNode, type FakePod, type FakePodInput } from './cluster.js';

export interface FakeKubernetesOptions {
  /** Drives termination delays; share a ManualClock with the drainer to make waiting instant. */
  clock?: Clock;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Serve HTTPS with this certificate instead of plain HTTP. */
  tls?: { cert: string; key: string };
  /** Largest page a pod list returns, to exercise `continue` tokens. Default 500. */
  pageSize?: number;
  /** Default time an evicted pod takes to disappear. Default 0. */
  terminationDelayMs?: number;
}

/**
 * Makes matching requests fail: an HTTP status, no answer at all (`hang`), or the request carried
 * out and its answer lost (`loseReply`: a partial effect the client cannot see).
 */
export interface KubernetesFault {
  method?: string;
  /** Substring of, or pattern for, the path with its query. */
  path?: string | RegExp;
  status?: number;
  hang?: boolean;
  loseReply?: boolean;
  /** How many matching requests fail. Default 1. */
  times?: number | 'forever';
}

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string;
  authorization: string | undefined;
}

/** An in-process Kubernetes API server on 127.0.0.1 speaking the subset a node drain needs. */
export class FakeKubernetesServer {
  readonly requests: RecordedRequest[] = [];
  private faults: Array<KubernetesFault & { left: number }> = [];

  private constructor(
    private readonly server: http.Server,
    readonly cluster: FakeCluster,
    readonly url: string,
    readonly token: string | undefined,
  ) {}

  static async start(options: FakeKubernetesOptions = {}): Promise<FakeKubernetesServer> {
    const cluster = new FakeCluster(options.clock, options.terminationDelayMs);
    let self: FakeKubernetesServer | undefined;
    const handler: http.RequestListener = (req, res) => self?.handle(req, res, options.pageSize ?? 500);
    const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeKubernetesServer(
      server,
      cluster,
      `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
      options.token,
    );
    return self;
  }

  /** Settings for KubernetesNodeDrainer.connect; plain HTTP needs skipTLSVerify, as with the official client. */
  connection(): { server: string; token: string; skipTLSVerify: boolean } {
    return { server: this.url, token: this.token ?? 'fake-token', skipTLSVerify: true };
  }

  injectFault(fault: KubernetesFault): void {
    const times = fault.times ?? 1;
    this.faults.push({ ...fault, left: times === 'forever' ? Number.POSITIVE_INFINITY : times });
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Client connections open now (keep-alive ones included): tests see a client close them. */
  openConnections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, pageSize: number): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
      const authorization = req.headers.authorization;
      this.requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        contentType,
        authorization,
      });

      if (this.token !== undefined && authorization !== `Bearer ${this.token}`) {
        return send(res, 401, statusJson(401, 'Unauthorized', 'Unauthorized'));
      }
      const fault = this.takeFault(req.method ?? 'GET', url.pathname + url.search);
      if (fault?.hang) return; // never answered; the client's timeout must fire
      if (fault && !fault.loseReply) {
        const status = fault.status ?? 500;
        return send(res, status, statusJson(status, 'InternalError', 'injected fault'));
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = route(this.cluster, { method: req.method ?? 'GET', url, contentType, body }, pageSize);
      if (fault?.loseReply) return void req.socket.destroy();
      send(res, answer.status, answer.body);
    });
  }

  private takeFault(method: string, path: string): KubernetesFault | undefined {
    const fault = this.faults.find(
      (f) =>
        f.left > 0 &&
        (f.method === undefined || f.method === method) &&
        (f.path === undefined || (typeof f.path === 'string' ? path.includes(f.path) : f.path.test(path))),
    );
    if (fault) fault.left -= 1;
    return fault;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
