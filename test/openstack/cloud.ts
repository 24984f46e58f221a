/**
 * The running cloud, for the tests: its clouds.yaml entries, and an operator's client of its own
 * (plain fetch, independent of Placid's drivers) that boots, moves and deletes servers and says what
 * Nova and Placement hold, to judge what Placid reads and does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, inject } from 'vitest';
import { parse } from 'yaml';

export const COMPUTE_HOSTS = ['cmp-1', 'cmp-2', 'cmp-3'];

export interface RealCloud {
  dir: string;
  cloudsYaml: string;
  /** The clouds.yaml entries: `placid-admin` (admin) and `placid-member` (member of `demo`). */
  admin: CloudEntry;
  member: CloudEntry;
}

export interface CloudEntry {
  auth: Record<string, string>;
  region_name: string;
}

/** The cloud the global set-up brought up; throws (so the test fails) when it could not start. */
export function useCloud(): RealCloud {
  const state = inject('openstack');
  if ('error' in state) throw new Error(`the OpenStack control plane did not start: ${state.error}`);
  const cloudsYaml = join(state.dir, 'clouds.yaml');
  const clouds = parse(readFileSync(cloudsYaml, 'utf8')).clouds as Record<string, CloudEntry>;
  return { dir: state.dir, cloudsYaml, admin: clouds['placid-admin'], member: clouds['placid-member'] };
}

/**
 * Runs `setup` once before the file's tests; when it throws (the cloud did not start, a service
 * refused), every test fails with that error instead of being skipped.
 */
export function setUpOnce(setup: () => Promise<void>): void {
  let failure: unknown;
  beforeAll(async () => {
    try {
      await setup();
    } catch (error) {
      failure = error;
    }
  });
  beforeEach(() => {
    if (failure !== undefined) throw failure;
  });
}

interface Catalog {
  type: string;
  endpoints: { interface: string; url: string }[];
}

/** Nova's and Placement's JSON, as the tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: the services' answers are what the tests check
export type Json = any;

export interface ApiAnswer {
  status: number;
  body: Json;
}

/** An operator at the cloud's APIs: admin token, explicit microversions. */
export class Operator {
  #token: string | undefined;
  #catalog: Catalog[] = [];
  constructor(readonly entry: CloudEntry) {}

  static admin(): Operator {
    return new Operator(useCloud().admin);
  }

  async token(): Promise<string> {
    if (this.#token) return this.#token;
    const a = this.entry.auth;
    const response = await fetch(`${a.auth_url}/auth/tokens`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        auth: {
          identity: {
            methods: ['password'],
            password: { user: { name: a.username, domain: { id: a.user_domain_id }, password: a.password } },
          },
          scope: { project: { name: a.project_name, domain: { id: a.project_domain_id } } },
        },
      }),
    });
    if (response.status !== 201) throw new Error(`Keystone refused ${a.username}: ${response.status}`);
    this.#catalog = ((await response.json()) as { token: { catalog: Catalog[] } }).token.catalog;
    this.#token = response.headers.get('x-subject-token') ?? '';
    return this.#token;
  }

  async endpoint(type: string): Promise<string> {
    await this.token();
    const url = this.#catalog
      .find((c) => c.type === type)
      ?.endpoints.find((e) => e.interface === 'public')?.url;
    if (!url) throw new Error(`no ${type} endpoint in the catalog`);
    return url;
  }

  async call(
    service: 'compute' | 'placement' | 'identity',
    method: string,
    path: string,
    options: { body?: unknown; microversion?: string } = {},
  ): Promise<ApiAnswer> {
    const headers: Record<string, string> = { 'X-Auth-Token': await this.token() };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.microversion) headers['OpenStack-API-Version'] = `${service} ${options.microversion}`;
    const response = await fetch((await this.endpoint(service)) + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body };
  }

  async nova(method: string, path: string, body?: unknown, microversion = '2.88'): Promise<Json> {
    const answer = await this.call('compute', method, path, { body, microversion });
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async placement(path: string, microversion = '1.39'): Promise<Json> {
    const answer = await this.call('placement', 'GET', path, { microversion });
    if (answer.status !== 200)
      throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async flavorId(name: string): Promise<string> {
    const { flavors } = await this.nova('GET', '/flavors');
    return flavors.find((f: { name: string }) => f.name === name).id;
  }

  async imageId(): Promise<string> {
    const response = await fetch(`${await this.endpoint('image')}/v2/images?name=placid-tiny`, {
      headers: { 'X-Auth-Token': await this.token() },
    });
    return ((await response.json()) as { images: { id: string }[] }).images[0].id;
  }

  /** Boots servers (min_count of them) without networks; returns the reservation's server ids. */
  async boot(
    name: string,
    options: {
      flavor?: string;
      host?: string;
      count?: number;
      hints?: Record<string, unknown>;
      az?: string;
    } = {},
  ): Promise<string[]> {
    const server: Record<string, unknown> = {
      name,
      flavorRef: await this.flavorId(options.flavor ?? 'placid.small'),
      imageRef: await this.imageId(),
      networks: 'none',
      min_count: options.count ?? 1,
      max_count: options.count ?? 1,
      return_reservation_id: true,
    };
    // A forced host for the scenarios that need a server on a given host (2.74: host= is checked).
    if (options.host) server.host = options.host;
    if (options.az) server.availability_zone = options.az;
    const body: Record<string, unknown> = { server };
    if (options.hints) body['os:scheduler_hints'] = options.hints;
    const { reservation_id } = await this.nova('POST', '/servers', body);
    const { servers } = await this.nova('GET', `/servers?reservation_id=${reservation_id}`);
    return servers.map((s: { id: string }) => s.id);
  }

  async server(id: string): Promise<Json> {
    return (await this.nova('GET', `/servers/${id}`)).server;
  }

  /** Waits until the server leaves BUILD / a task; returns it (ACTIVE or ERROR). */
  async settle(id: string, timeoutMs = 120_000): Promise<Json> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const server = await this.server(id);
      if (!['BUILD', 'MIGRATING'].includes(server.status) && server['OS-EXT-STS:task_state'] === null)
        return server;
      if (Date.now() > end)
        throw new Error(`server ${id} still ${server.status}/${server['OS-EXT-STS:task_state']}`);
      await sleep(500);
    }
  }

  async hostOf(id: string): Promise<string> {
    return (await this.server(id))['OS-EXT-SRV-ATTR:host'];
  }

  /** Deletes every server whose name starts with `prefix` and waits until they are gone. */
  async deleteServers(prefix: string): Promise<void> {
    const { servers } = await this.nova('GET', `/servers?all_tenants=1&name=^${prefix}`);
    for (const s of servers) await this.call('compute', 'DELETE', `/servers/${s.id}`);
    const end = Date.now() + 120_000;
    while (Date.now() < end) {
      const left = await this.nova('GET', `/servers?all_tenants=1&name=^${prefix}`);
      if (left.servers.length === 0) return;
      await sleep(500);
    }
    throw new Error(`servers ${prefix}* not deleted within 120 s`);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
