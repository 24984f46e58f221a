/**
 * The Nova calls a fleet inventory needs, read-only and paginated: hypervisors with their usage,
 * servers of every project, host aggregates and server groups. Each page is retried on its own,
 * so a transient error on page 7 does not restart the listing. The microversion must be at least
 * 2.53 (hypervisor UUIDs, which are also their Placement provider UUIDs, and paging); the default
 * 2.87 is the last one whose os-hypervisors still reports usage (2.88 removed it).
 */
import { ConfigError } from '../../model/errors.js';
import { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from '../retry.js';
import type { EndpointInterface } from './auth.js';
import { OpenStackResponseError } from './errors.js';
import { type FetchLike, parseBody } from './http.js';
import {
  aggregatesSchema,
  hypervisorPageSchema,
  migrationPageSchema,
  type NovaAggregate,
  type NovaHypervisor,
  type NovaInventoryServer,
  type NovaServerGroup,
  serverGroupsSchema,
  serverPageSchema,
} from './inventorySchemas.js';
import type { TokenSource } from './keystone.js';
import { compareMicroversions } from './microversion.js';
import type { NovaMigrationRecord } from './schemas.js';
import { getFromService, type ServiceTarget } from './serviceCall.js';

export const INVENTORY_DEFAULT_MICROVERSION = '2.87';
export const INVENTORY_MIN_MICROVERSION = '2.53';
/** 2.88 dropped vcpus, memory_mb, local_gb and their usage from os-hypervisors. */
export const HYPERVISOR_USAGE_REMOVED_IN = '2.88';
/** Nova's default `[api] max_limit`; a smaller page is fine, a larger one is cut to this. */
export const DEFAULT_PAGE_SIZE = 1000;

export interface NovaInventoryOptions {
  microversion?: string;
  interface?: EndpointInterface;
  region?: string;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  pageSize?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchLike;
}

export class NovaInventoryClient {
  readonly microversion: string;
  readonly #session: TokenSource;
  readonly #target: ServiceTarget;
  readonly #retry: RetryPolicy;
  readonly #pageSize: number;

  constructor(session: TokenSource, options: NovaInventoryOptions = {}) {
    this.microversion = inventoryMicroversion(options.microversion ?? INVENTORY_DEFAULT_MICROVERSION);
    this.#session = session;
    this.#pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!(Number.isInteger(this.#pageSize) && this.#pageSize >= 1)) {
      throw new ConfigError(`nova page size must be a whole number >= 1, got ${options.pageSize}`);
    }
    this.#retry = { ...DEFAULT_DRIVER_RETRY, ...options.retry };
    this.#target = {
      service: 'compute',
      versionHeaders: {
        'OpenStack-API-Version': `compute ${this.microversion}`,
        'X-OpenStack-Nova-API-Version': this.microversion,
      },
      interface: options.interface,
      region: options.region,
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch,
    };
  }

  /** True when os-hypervisors reports usage at this microversion (below 2.88). */
  get hypervisorsReportUsage(): boolean {
    return compareMicroversions(this.microversion, HYPERVISOR_USAGE_REMOVED_IN) < 0;
  }

  /** `GET /os-hypervisors/detail`, every page. */
  listHypervisors(): Promise<NovaHypervisor[]> {
    return this.#listByMarker(`/os-hypervisors/detail?limit=${this.#pageSize}`, (r, path) => {
      const page = parseBody(hypervisorPageSchema, r, this.#site(path));
      return { items: page.hypervisors, links: page.hypervisors_links };
    });
  }

  /** `GET /servers/detail?all_tenants=1`, every page (admin: every project's servers). */
  listServers(): Promise<NovaInventoryServer[]> {
    return this.#listByMarker(`/servers/detail?all_tenants=1&limit=${this.#pageSize}`, (r, path) => {
      const page = parseBody(serverPageSchema, r, this.#site(path));
      return { items: page.servers, links: page.servers_links };
    });
  }

  /** `GET /os-aggregates` (not paginated by Nova). */
  async listAggregates(): Promise<NovaAggregate[]> {
    const path = '/os-aggregates';
    const r = await this.#read(path);
    return parseBody(aggregatesSchema, r, this.#site(path)).aggregates;
  }

  /**
   * `GET /os-migrations?migration_type=live-migration&changes-since=…`: migrations of every server
   * changed since `since`, every page (paged by marker from 2.59).
   */
  listLiveMigrationsSince(since: Date): Promise<NovaMigrationRecord[]> {
    const query = new URLSearchParams({
      migration_type: 'live-migration',
      'changes-since': since.toISOString(),
      limit: String(this.#pageSize),
    });
    return this.#listByMarker(`/os-migrations?${query}`, (r, path) => {
      const page = parseBody(migrationPageSchema, r, this.#site(path));
      return { items: page.migrations, links: page.migrations_links };
    });
  }

  /** `GET /os-server-groups?all_projects=true`, paged by offset (Nova has no marker here). */
  async listServerGroups(): Promise<NovaServerGroup[]> {
    const all: NovaServerGroup[] = [];
    for (;;) {
      const path = `/os-server-groups?all_projects=true&limit=${this.#pageSize}&offset=${all.length}`;
      const page = parseBody(serverGroupsSchema, await this.#read(path), this.#site(path)).server_groups;
      // Nova caps a page at its own max_limit, which may be below ours: only an empty page ends it.
      if (page.length === 0) return all;
      all.push(...page);
    }
  }

  async #listByMarker<T>(
    first: string,
    parse: (
      response: Awaited<ReturnType<typeof getFromService>>,
      path: string,
    ) => {
      items: T[];
      links?: { rel: string; href: string }[];
    },
  ): Promise<T[]> {
    const all: T[] = [];
    const seen = new Set<string>();
    let path: string | undefined = first;
    while (path !== undefined) {
      const { items, links } = parse(await this.#read(path), path);
      all.push(...items);
      const marker = nextMarker(links);
      if (marker === undefined) return all;
      if (seen.has(marker))
        throw new OpenStackResponseError(this.#site(path), `next link repeats marker ${marker}`);
      seen.add(marker);
      path = `${first}&marker=${encodeURIComponent(marker)}`;
    }
    return all;
  }

  #read(path: string) {
    return retryIdempotent(() => getFromService(this.#session, this.#target, path), this.#retry);
  }

  #site(path: string) {
    return { service: 'compute' as const, method: 'GET', path };
  }
}

/** The marker of the `next` link; the link's host is ignored (proxies often rewrite it wrongly). */
function nextMarker(links: { rel: string; href: string }[] | undefined): string | undefined {
  const next = links?.find((l) => l.rel === 'next');
  if (!next) return undefined;
  const marker = new URL(next.href, 'http://link.invalid').searchParams.get('marker');
  return marker ?? undefined;
}

function inventoryMicroversion(version: string): string {
  if (!/^2\.\d+$/.test(version)) {
    throw new ConfigError(`compute microversion must look like "2.87", got ${JSON.stringify(version)}`);
  }
  if (compareMicroversions(version, INVENTORY_MIN_MICROVERSION) < 0) {
    throw new ConfigError(
      `compute microversion ${version} is too old for the inventory: it needs ${INVENTORY_MIN_MICROVERSION} or later (hypervisor UUIDs and paging)`,
    );
  }
  return version;
}
