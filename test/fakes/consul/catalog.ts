import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RecordedConsulRequest } from './agent.js';

/** A node as the catalog lists it (`GET /v1/catalog/nodes`). */
export interface FakeCatalogNode {
  node: string;
  address: string;
  datacenter: string;
}

/**
 * A Consul server's catalog: `GET /v1/catalog/nodes[?dc=]` over the nodes registered here, in the
 * agent's datacenter (`dc1`) unless `?dc=` names another. Records every request.
 */
export class FakeConsulCatalog {
  readonly requests: RecordedConsulRequest[] = [];
  readonly nodes: FakeCatalogNode[] = [];

  private constructor(
    private readonly server: http.Server,
    /** `127.0.0.1:<port>`. */
    readonly address: string,
    private readonly token: string | undefined,
  ) {}

  static async start(
    options: { token?: string; tls?: { cert: string; key: string } } = {},
  ): Promise<FakeConsulCatalog> {
    let self: FakeConsulCatalog | undefined;
    const handler: http.RequestListener = (req, res) => self?.handle(req, res);
    const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FakeConsulCatalog(
      server,
      `127.0.0.1:${(server.address() as AddressInfo).port}`,
      options.token,
    );
    return self;
  }

  register(node: string, address: string, datacenter = 'dc1'): void {
    this.nodes.push({ node, address, datacenter });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const header = req.headers['x-consul-token'];
    const token = typeof header === 'string' ? header : (url.searchParams.get('token') ?? undefined);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, token });
    const reply = (status: number, body: string, type = 'text/plain') => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    };
    if (this.token !== undefined && token !== this.token) return void reply(403, 'Permission denied');
    if (url.pathname !== '/v1/catalog/nodes' || req.method !== 'GET') return void reply(404, 'not found');
    const dc = url.searchParams.get('dc') ?? 'dc1';
    const listed = this.nodes
      .filter((n) => n.datacenter === dc)
      .map((n) => ({ Node: n.node, Address: n.address, Datacenter: n.datacenter }));
    reply(200, JSON.stringify(listed), 'application/json');
  }
}
