/**
 * An in-process fake of the Keystone v3 and Nova API subsets Placid's OpenStack driver uses, on
 * 127.0.0.1 and a free port, for tests and the local simulation. The real client talks to it over
 * HTTP; tests steer it through this programmatic API (servers, migrations, faults, clock).
 *
 * URL layout: Keystone at `<url>/identity/v3`; Nova at `<url>/compute/<region>/<interface>/v2.1`,
 * so the path of every request shows which catalog endpoint the client picked.
 */

import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { CloudCredentials } from '../../../lib/drivers/openstack/auth.js';
import { type Clock, systemClock } from '../../../lib/model/clock.js';
import type { FakeFault, FakeRouteName } from './faults.js';
import { novaFault, writeReply } from './http.js';
import type {
  FakeAggregate,
  FakeHypervisor,
  FakeHypervisorInput,
  FakeServerGroup,
} from './inventoryState.js';
import {
  FAKE_ADMIN,
  FAKE_APP_CREDENTIAL,
  type FakeApplicationCredential,
  FakeKeystone,
  type FakeUser,
} from './keystone.js';
import { FakeRouter, type RecordedRequest } from './router.js';
import { FakeCloudState, type FakeMigration, type FakeServer, type FakeServerInput } from './state.js';

export type { FakeFault, FakeRouteName } from './faults.js';
export type {
  FakeAggregate,
  FakeHypervisor,
  FakeHypervisorInput,
  FakeServerGroup,
} from './inventoryState.js';
export { FAKE_ADMIN, FAKE_APP_CREDENTIAL, FAKE_MEMBER, fakeAdminAuth } from './keystone.js';
export type { RecordedRequest } from './router.js';
export type { FakeMigration, FakeServer, FakeServerInput, MigrationOutcome, MigrationPlan } from './state.js';

export interface FakeOpenStackOptions {
  /** Drives token expiry, timestamps and (with migrationDurationMs) migration progress. */
  clock?: Clock;
  /** Token lifetime. Default 1 h. */
  tokenTtlMs?: number;
  /** Polls from `accepted` to the outcome. Default 3. */
  migrationSteps?: number;
  /** When set, migrations progress with the clock and finish after this long (in `steps` slices). */
  migrationDurationMs?: number;
  /** Regions with compute endpoints (public, internal, admin each). Default `['RegionOne']`. */
  regions?: string[];
  /** Compute hosts a migration may target; by default any name is accepted. */
  hosts?: string[];
  users?: FakeUser[];
  applicationCredentials?: FakeApplicationCredential[];
  /** Highest compute microversion accepted; newer requests get 406. Default `2.96`. */
  maxMicroversion?: string;
  /** List Placement in the catalog (one endpoint per region and interface). Default false. */
  placement?: boolean;
  /** Nova's `[api] max_limit`: the longest page a listing returns. Default 1000. */
  maxPageSize?: number;
  /** Serve HTTPS with this certificate (PEM) instead of HTTP, to test custom CAs. */
  tls?: { cert: string; key: string };
}

export class FakeOpenStack {
  readonly url: string;
  readonly state: FakeCloudState;
  private readonly keystone: FakeKeystone;
  private readonly router: FakeRouter;

  private constructor(
    private readonly http: Server,
    options: FakeOpenStackOptions,
  ) {
    const { port } = http.address() as AddressInfo;
    this.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    const clock = options.clock ?? systemClock;
    this.state = new FakeCloudState(
      clock,
      { outcome: 'completed', steps: options.migrationSteps ?? 3 },
      options.migrationDurationMs,
    );
    const regions = options.regions ?? ['RegionOne'];
    this.keystone = new FakeKeystone(
      clock,
      options.tokenTtlMs ?? 3_600_000,
      options.users ?? [FAKE_ADMIN],
      options.applicationCredentials ?? [FAKE_APP_CREDENTIAL],
      () =>
        regions.flatMap((region) =>
          (['public', 'internal', 'admin'] as const).map((iface) => ({
            region,
            interface: iface,
            url: this.computeUrl(region, iface),
          })),
        ),
      () =>
        options.placement
          ? regions.flatMap((region) =>
              (['public', 'internal', 'admin'] as const).map((iface) => ({
                region,
                interface: iface,
                url: this.placementUrl(region, iface),
              })),
            )
          : [],
    );
    if (options.maxPageSize !== undefined) this.state.inventory.maxPageSize = options.maxPageSize;
    const maxMinor = Number((options.maxMicroversion ?? '2.96').split('.')[1]);
    this.router = new FakeRouter(this.state, this.keystone, new Set(options.hosts), maxMinor);
  }

  /** Starts the fake on 127.0.0.1 and a free port. */
  static async start(options: FakeOpenStackOptions = {}): Promise<FakeOpenStack> {
    let fake: FakeOpenStack | undefined;
    const handler: Parameters<typeof createServer>[1] = (request, response) => {
      fake?.router.handle(request, response).catch((error: unknown) => {
        writeReply(response, novaFault(500, `fake OpenStack failed: ${String(error)}`), {});
      });
    };
    const http: Server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    fake = new FakeOpenStack(http, options);
    return fake;
  }

  /** Keystone's URL, as an operator would put in `auth_url`. */
  get authUrl(): string {
    return `${this.url}/identity/v3`;
  }

  computeUrl(region: string, iface: 'public' | 'internal' | 'admin'): string {
    return `${this.url}/compute/${encodeURIComponent(region)}/${iface}/v2.1`;
  }

  placementUrl(region: string, iface: 'public' | 'internal' | 'admin'): string {
    return `${this.url}/placement/${encodeURIComponent(region)}/${iface}`;
  }

  /** A compute node (os-hypervisors, and a Placement provider with the same UUID). */
  addHypervisor(input: FakeHypervisorInput): FakeHypervisor {
    return { ...this.state.inventory.addHypervisor(input) };
  }

  addAggregate(input: Omit<FakeAggregate, 'id' | 'uuid'> & { uuid?: string }): FakeAggregate {
    return { ...this.state.inventory.addAggregate(input) };
  }

  addServerGroup(input: Omit<FakeServerGroup, 'id'> & { id?: string }): FakeServerGroup {
    return { ...this.state.inventory.addServerGroup(input) };
  }

  /** Credentials the fake accepts: the default admin's password, or its application credential. */
  credentials(method: 'password' | 'application_credential' = 'password'): CloudCredentials {
    if (method === 'application_credential') {
      return {
        authUrl: this.authUrl,
        auth: { method, credential: { id: FAKE_APP_CREDENTIAL.id }, secret: FAKE_APP_CREDENTIAL.secret },
      };
    }
    return {
      authUrl: this.authUrl,
      auth: {
        method,
        user: { name: FAKE_ADMIN.name, domain: { name: FAKE_ADMIN.domain } },
        password: FAKE_ADMIN.password,
        project: { name: FAKE_ADMIN.projectName, domain: { name: FAKE_ADMIN.domain } },
      },
    };
  }

  addServer(input: FakeServerInput): FakeServer {
    return { ...this.state.addServer(input) };
  }

  /** A copy of the server as Nova holds it now (host, status, task state). */
  getServer(id: string): FakeServer | undefined {
    const server = this.state.servers.get(id);
    return server && { ...server, metadata: { ...server.metadata } };
  }

  /** Changes a server directly (e.g. `{ status: 'SHUTOFF', vmState: 'stopped' }`, or a migration plan). */
  updateServer(id: string, patch: Partial<Omit<FakeServer, 'id'>>): void {
    Object.assign(this.requireServer(id), patch);
  }

  /** Someone deleted the server: Nova answers 404 for it from now on. */
  deleteServer(id: string): void {
    this.requireServer(id);
    this.state.servers.delete(id);
  }

  /** "Someone else" live-migrated the server to `host` (a completed migration is on record). */
  moveServer(id: string, host: string): void {
    this.state.moveServer(this.requireServer(id), host);
  }

  /** Every migration so far, oldest first (copies). */
  migrations(): FakeMigration[] {
    return this.state.migrations.map((m) => ({ ...m, plan: { ...m.plan } }));
  }

  /** Moves the server's running migration on by one poll, without an HTTP call. */
  advance(serverId: string): void {
    this.state.advance(serverId);
  }

  /** Makes calls to `route` fail (or hang) until cleared or `times` calls have been affected. */
  setFault(route: FakeRouteName, fault: FakeFault): void {
    this.router.faults.set(route, fault);
  }

  clearFaults(): void {
    this.router.faults.clear();
  }

  /** Revokes every token issued so far: the next Nova call gets 401. */
  revokeTokens(): void {
    this.keystone.revokeAll();
  }

  get tokensIssued(): number {
    return this.keystone.issued;
  }

  /** Requests received so far (headers lower-cased), oldest first. */
  requests(): RecordedRequest[] {
    return this.router.log.map((r) => ({ ...r, headers: { ...r.headers } }));
  }

  async close(): Promise<void> {
    this.router.releaseHanging();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private requireServer(id: string): FakeServer {
    const server = this.state.servers.get(id);
    if (!server) throw new RangeError(`fake OpenStack has no server ${id}`);
    return server;
  }
}
