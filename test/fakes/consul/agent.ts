import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** Consul's own wording when maintenance is enabled without a reason. */
export const DEFAULT_MAINTENANCE_REASON =
  'Maintenance mode is enabled for this node, but no reason was provided. This is a default message.';
export const NODE_MAINTENANCE_CHECK = '_node_maintenance';

export interface FakeConsulAgentOptions {
  nodeName: string;
  datacenter?: string;
  /** When set, requests must carry this ACL token (X-Consul-Token or a bearer token). */
  token?: string;
  /**
   * What the token's policy grants on this node, as Consul's ACL rules would (`node:write`
   * implies `node:read`). Every permission when absent.
   */
  permissions?: ReadonlyArray<ConsulPermission>;
  /** Serve HTTPS with this certificate instead of plain HTTP. */
  tls?: { cert: string; key: string };
}

export type ConsulPermission = 'agent:read' | 'node:read' | 'node:write';

/**
 * What goes wrong with the next matching requests: `unreachable` drops the connection before any
 * answer, `hang` never answers (the client's timeout must fire), `status` answers with an error,
 * `lose-reply` carries the request out and then drops the connection (a partial effect).
 */
export interface ConsulFault {
  kind: 'unreachable' | 'hang' | 'status' | 'lose-reply';
  status?: number;
  /** Substring of the request path; every path when absent. */
  path?: string;
  /** Default 1. */
  times?: number | 'forever';
}

export interface RecordedConsulRequest {
  method: string;
  path: string;
  token: string | undefined;
}

/** One Consul agent's HTTP API (the node-maintenance subset) on 127.0.0.1, with fault injection. */
export class FakeConsulAgent {
  readonly requests: RecordedConsulRequest[] = [];
  /** Null when the node is not in maintenance. */
  maintenanceReason: string | null = null;
  private faults: Array<ConsulFault & { left: number }> = [];

  private constructor(
    private readonly server: http.Server,
    readonly options: FakeConsulAgentOptions,
    /** `127.0.0.1:<port>`, the form an instance report carries. */
    readonly address: string,
  ) {}

  static async start(options: FakeConsulAgentOptions): Promise<FakeConsulAgent> {
    let self: FakeConsulAgent | undefined;
    const handler: http.RequestListener = (req, res) => self?.handle(req, res);
    const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new FakeConsulAgent(server, options, `127.0.0.1:${port}`);
    return self;
  }

  get nodeName(): string {
    return this.options.nodeName;
  }

  get inMaintenance(): boolean {
    return this.maintenanceReason !== null;
  }

  injectFault(fault: ConsulFault): void {
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

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const token = readToken(req, url);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, token });
    req.resume();
    req.on('end', () => {
      const fault = this.takeFault(url.pathname);
      // An unreachable agent: the connection drops without a single byte of answer.
      if (fault?.kind === 'unreachable') return void req.socket.destroy();
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'status') return send(res, { status: fault.status ?? 500, text: 'injected fault' });
      if (this.options.token !== undefined && token !== this.options.token) {
        return send(res, {
          status: 403,
          text: token === undefined ? 'Permission denied: anonymous token lacks permission' : 'ACL not found',
        });
      }
      const missing = this.missingPermission(url.pathname);
      if (missing) {
        // Consul's wording (1.11+): the accessor, the permission and the resource it was checked on.
        return send(res, {
          status: 403,
          text: `Permission denied: token with AccessorID 'fake-accessor' lacks permission '${missing}' on "${this.nodeName}"`,
        });
      }
      const reply = this.route(req.method ?? 'GET', url);
      if (fault?.kind === 'lose-reply') return void req.socket.destroy();
      send(res, reply);
    });
  }

  private route(method: string, url: URL): Reply {
    if (url.pathname === '/v1/agent/self' && method === 'GET') {
      return {
        status: 200,
        json: {
          Config: { NodeName: this.nodeName, Datacenter: this.options.datacenter ?? 'dc1' },
          Member: { Name: this.nodeName, Addr: '127.0.0.1' },
        },
      };
    }
    if (url.pathname === '/v1/agent/checks' && method === 'GET') return { status: 200, json: this.checks() };
    if (url.pathname !== '/v1/agent/maintenance') {
      return { status: 404, text: 'Invalid URL path: not a recognized HTTP API endpoint' };
    }
    if (method !== 'PUT') return { status: 405, text: `method ${method} not allowed` };
    const enable = url.searchParams.get('enable');
    if (enable === null) return { status: 400, text: 'Missing value for enable' };
    if (enable !== 'true' && enable !== 'false') return { status: 400, text: 'Invalid value for enable' };
    // Like Consul, enabling twice keeps the first reason.
    if (enable === 'true' && this.maintenanceReason === null) {
      this.maintenanceReason = url.searchParams.get('reason') || DEFAULT_MAINTENANCE_REASON;
    }
    if (enable === 'false') this.maintenanceReason = null;
    return { status: 200, text: '' };
  }

  private checks(): Record<string, unknown> {
    if (this.maintenanceReason === null) return {};
    return {
      [NODE_MAINTENANCE_CHECK]: {
        Node: this.nodeName,
        CheckID: NODE_MAINTENANCE_CHECK,
        Name: 'Node Maintenance Mode',
        Status: 'critical',
        Notes: this.maintenanceReason,
        Output: '',
        ServiceID: '',
        ServiceName: '',
      },
    };
  }

  /** The permission the endpoint needs (Consul's API docs, "ACL Required") if the token lacks it. */
  private missingPermission(path: string): ConsulPermission | undefined {
    const granted = this.options.permissions;
    if (granted === undefined) return undefined;
    const needed: ConsulPermission | undefined =
      path === '/v1/agent/self'
        ? 'agent:read'
        : path === '/v1/agent/checks'
          ? 'node:read'
          : path === '/v1/agent/maintenance'
            ? 'node:write'
            : undefined;
    if (needed === undefined || granted.includes(needed)) return undefined;
    if (needed === 'node:read' && granted.includes('node:write')) return undefined;
    return needed;
  }

  private takeFault(path: string): ConsulFault | undefined {
    const fault = this.faults.find((f) => f.left > 0 && (f.path === undefined || path.includes(f.path)));
    if (fault) fault.left -= 1;
    return fault;
  }
}

function readToken(req: http.IncomingMessage, url: URL): string | undefined {
  const header = req.headers['x-consul-token'];
  if (typeof header === 'string') return header;
  const bearer = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
  return bearer ?? url.searchParams.get('token') ?? undefined;
}

interface Reply {
  status: number;
  json?: unknown;
  text?: string;
}

function send(res: http.ServerResponse, reply: Reply): void {
  const body = reply.json === undefined ? (reply.text ?? '') : JSON.stringify(reply.json);
  const type = reply.json === undefined ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(reply.status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
