/**
 * Routes the fake's HTTP requests: Keystone's token call, then Nova's routes behind a token check
 * and a microversion check, with injected faults applied first. Records every request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FakeRouteName, FaultBook } from './faults.js';
import { type FakeReply, keystoneFault, novaFault, readJsonBody, writeReply } from './http.js';
import type { FakeKeystone } from './keystone.js';
import { NOVA_ROUTES } from './nova.js';
import { PLACEMENT_ROUTES, placementFault } from './placementRoutes.js';
import type { FakeCloudState } from './state.js';

export interface RecordedRequest {
  route: FakeRouteName | 'unknown';
  method: string;
  path: string;
  region?: string;
  interface?: string;
  headers: Record<string, string>;
}

const NOVA_PATH = /^\/compute\/([^/]+)\/(public|internal|admin)\/v2\.1(\/.*)$/;
const PLACEMENT_PATH = /^\/placement\/([^/]+)\/(public|internal|admin)(\/.*)$/;

/** Nova's default policy: these routes need the admin role (the rule each is checked against). */
const ADMIN_ONLY: Partial<Record<FakeRouteName, string>> = {
  liveMigrate: 'os_compute_api:os-migrate-server:migrate_live',
  listMigrations: 'os_compute_api:os-migrations:index',
  listServerMigrations: 'os_compute_api:servers:migrations:index',
  forceComplete: 'os_compute_api:servers:migrations:force_complete',
  abortMigration: 'os_compute_api:servers:migrations:delete',
};

/** Non-admins do not see `OS-EXT-SRV-ATTR:*` (os_compute_api:os-extended-server-attributes). */
function withoutHostFields(reply: FakeReply): FakeReply {
  const server = (reply.body as { server?: Record<string, unknown> } | undefined)?.server;
  if (!server) return reply;
  const visible = Object.fromEntries(
    Object.entries(server).filter(([k]) => !k.startsWith('OS-EXT-SRV-ATTR:')),
  );
  return { ...reply, body: { server: visible } };
}

export class FakeRouter {
  readonly faults = new FaultBook();
  readonly log: RecordedRequest[] = [];
  private readonly hanging = new Set<ServerResponse>();

  constructor(
    private readonly state: FakeCloudState,
    private readonly keystone: FakeKeystone,
    private readonly knownHosts: ReadonlySet<string>,
    private readonly maxMinor: number,
  ) {}

  /** Drops the requests left hanging by a `hang` fault. */
  releaseHanging(): void {
    for (const response of this.hanging) response.destroy();
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readJsonBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    const requestId = `req-${randomUUID()}`;
    const nova = NOVA_PATH.exec(url.pathname);
    const entry: RecordedRequest = {
      route: 'unknown',
      method: request.method ?? 'GET',
      path: url.pathname,
      headers,
    };
    this.log.push(entry);
    if (request.method === 'POST' && url.pathname === '/identity/v3/auth/tokens') {
      entry.route = 'auth';
      const reply = await this.withFault('auth', response, () => this.keystone.issueToken(body));
      if (reply) writeReply(response, reply, { 'x-openstack-request-id': requestId });
      return;
    }
    const placement = PLACEMENT_PATH.exec(url.pathname);
    if (placement) return this.handlePlacement(placement, entry, headers, response, requestId);
    if (!nova) return writeReply(response, keystoneFault(404, `no fake route for ${url.pathname}`), {});
    [, entry.region, entry.interface] = nova;
    const path = nova[3];
    const route = NOVA_ROUTES.find((r) => r.method === request.method && r.pattern.test(path));
    if (!route)
      return writeReply(response, novaFault(404, `no fake route for ${request.method} ${path}`), {});
    entry.route = route.name;
    const version = this.microversion(headers);
    const novaHeaders = {
      'OpenStack-API-Version': `compute 2.${typeof version === 'number' ? version : 1}`,
      'X-OpenStack-Nova-API-Version': `2.${typeof version === 'number' ? version : 1}`,
      Vary: 'OpenStack-API-Version, X-OpenStack-Nova-API-Version',
      'x-openstack-request-id': requestId,
      'x-compute-request-id': requestId,
    };
    const reply = await this.withFault(route.name, response, () => {
      if (!this.keystone.isValid(headers['x-auth-token'])) return this.keystone.unauthorized();
      if (typeof version !== 'number') return version;
      if (version < route.since) return novaFault(404, `${route.name} needs microversion 2.${route.since}`);
      const admin = this.keystone.isAdmin(headers['x-auth-token']);
      const params = (route.pattern.exec(path) ?? []).slice(1).map(decodeURIComponent);
      // Nova looks the server up within the caller's project before it checks the policy: another
      // project's server is a 404 to a non-admin, not a 403.
      const server = path.startsWith('/servers/') ? this.state.servers.get(params[0]) : undefined;
      if (!admin && server && server.projectId !== this.keystone.projectOf(headers['x-auth-token'])) {
        return novaFault(404, `Instance ${params[0]} could not be found.`);
      }
      if (!admin && ADMIN_ONLY[route.name]) {
        return novaFault(403, `Policy doesn't allow ${ADMIN_ONLY[route.name]} to be performed.`);
      }
      const call = { state: this.state, params, query: url.searchParams, body, minor: version };
      const reply = route.handle({ ...call, knownHosts: this.knownHosts });
      return admin ? reply : withoutHostFields(reply);
    });
    if (reply) writeReply(response, reply, novaHeaders);
  }

  private async handlePlacement(
    match: RegExpExecArray,
    entry: RecordedRequest,
    headers: Record<string, string>,
    response: ServerResponse,
    requestId: string,
  ): Promise<void> {
    [, entry.region, entry.interface] = match;
    const path = match[3];
    const route = PLACEMENT_ROUTES.find((r) => entry.method === 'GET' && r.pattern.test(path));
    if (!route) return writeReply(response, placementFault(404, `no fake route for ${path}`), {});
    entry.route = route.name;
    const reply = await this.withFault(route.name, response, () => {
      if (!this.keystone.isValid(headers['x-auth-token'])) return this.keystone.unauthorized();
      const uuid = decodeURIComponent(route.pattern.exec(path)?.[1] ?? '');
      const provider = this.state.inventory.hypervisors.find((h) => h.id === uuid);
      if (!provider) return placementFault(404, `No resource provider with uuid ${uuid} found`);
      return route.handle(this.state, provider);
    });
    if (reply) writeReply(response, reply, { 'openstack-request-id': requestId });
  }

  /** The requested minor version, or the reply Nova gives to a bad or too-new one. */
  private microversion(headers: Record<string, string>): number | FakeReply {
    const raw =
      /^compute\s+(\S+)$/.exec(headers['openstack-api-version'] ?? '')?.[1] ??
      headers['x-openstack-nova-api-version'] ??
      '2.1';
    if (raw === 'latest') return this.maxMinor;
    const match = /^2\.(\d+)$/.exec(raw);
    if (!match) return novaFault(400, `Invalid format for API version ${raw}`);
    const minor = Number(match[1]);
    if (minor > this.maxMinor) {
      return novaFault(
        406,
        `Version 2.${minor} is not supported by the API. Minimum is 2.1 and maximum is 2.${this.maxMinor}.`,
      );
    }
    return minor;
  }

  /** Runs `effect` unless a fault replaces it; returns the reply to send, or undefined to hang. */
  private async withFault(
    route: FakeRouteName,
    response: ServerResponse,
    effect: () => FakeReply,
  ): Promise<FakeReply | undefined> {
    const fault = this.faults.take(route);
    if (!fault) return effect();
    if (fault.afterEffect) effect();
    if (fault.kind === 'hang') {
      this.hanging.add(response);
      response.on('close', () => this.hanging.delete(response));
      return undefined;
    }
    const reply =
      route === 'auth'
        ? keystoneFault(fault.status, fault.message ?? 'injected fault')
        : novaFault(fault.status, fault.message ?? 'injected fault');
    if (fault.retryAfterSeconds !== undefined)
      reply.headers = { 'Retry-After': String(fault.retryAfterSeconds) };
    return reply;
  }
}
