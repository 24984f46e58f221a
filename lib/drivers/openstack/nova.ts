/**
 * A typed client for the Nova compute API calls a live migration needs. Every request carries the
 * token and the compute microversion; reads are retried on retryable errors, actions never are (a
 * timed-out POST may have started something; the caller checks the state before trying again).
 */

import { RequestError } from '../../model/errors.js';
import { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from '../retry.js';
import type { EndpointInterface } from './auth.js';
import type { CallSite } from './errors.js';
import { OpenStackForbiddenError } from './errors.js';
import { type FetchLike, type HttpResponse, parseBody, scrub, sendRequest } from './http.js';
import type { TokenSource } from './keystone.js';
import { assertMicroversion, NOVA_DEFAULT_MICROVERSION } from './microversion.js';
import {
  metadataSchema,
  migrationRecordsSchema,
  type NovaMigrationRecord,
  type NovaServer,
  type ServerMigration,
  serverMigrationsSchema,
  serverSchema,
} from './schemas.js';
import { closeFetch } from './tlsFetch.js';

export interface NovaClientOptions {
  /** Compute API microversion; default NOVA_DEFAULT_MICROVERSION, at least 2.25. */
  microversion?: string;
  /** Override the session's endpoint interface / region for compute. */
  interface?: EndpointInterface;
  region?: string;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchLike;
}

export interface LiveMigrateOptions {
  /** Destination compute host; null lets Nova's scheduler choose. Nova's scheduler still checks it. */
  host: string | null;
  /** `auto` lets Nova pick block vs shared-storage migration per server. Default `auto`. */
  blockMigration?: boolean | 'auto';
}

export interface MigrationFilter {
  instanceUuid: string;
  /** Default `live-migration`. */
  migrationType?: 'live-migration' | 'migration' | 'resize' | 'evacuation';
}

export const DEFAULT_NOVA_TIMEOUT_MS = 30_000;

type Method = 'GET' | 'POST' | 'DELETE';

export class NovaClient {
  readonly microversion: string;
  readonly #session: TokenSource;
  readonly #options: NovaClientOptions;
  readonly #retry: RetryPolicy;

  constructor(session: TokenSource, options: NovaClientOptions = {}) {
    this.microversion = assertMicroversion(options.microversion ?? NOVA_DEFAULT_MICROVERSION);
    this.#session = session;
    this.#options = options;
    this.#retry = { ...DEFAULT_DRIVER_RETRY, ...options.retry };
  }

  /** Closes the keep-alive connections of a private-CA fetch (a driver replaced after a rotation). */
  close(): void {
    closeFetch(this.#options.fetch);
  }

  /** `GET /servers/{id}`: status, task state and (for admins) the host it runs on. */
  async getServer(serverId: string): Promise<NovaServer> {
    const path = `/servers/${id('serverId', serverId)}`;
    return this.#read(path, (r, site) => parseBody(serverSchema, r, site));
  }

  /** `GET /servers/{id}/metadata`. */
  async getServerMetadata(serverId: string): Promise<Record<string, string>> {
    const path = `/servers/${id('serverId', serverId)}/metadata`;
    return this.#read(path, (r, site) => parseBody(metadataSchema, r, site).metadata);
  }

  /** `POST /servers/{id}/action` `os-migrateLive`; 202, checks run asynchronously (>= 2.34). */
  async liveMigrate(serverId: string, options: LiveMigrateOptions): Promise<void> {
    const body = {
      'os-migrateLive': { host: options.host, block_migration: options.blockMigration ?? 'auto' },
    };
    await this.#send('POST', `/servers/${id('serverId', serverId)}/action`, body);
  }

  /** `GET /servers/{id}/migrations`: only the server's in-progress live migrations. */
  async listServerMigrations(serverId: string): Promise<ServerMigration[]> {
    const path = `/servers/${id('serverId', serverId)}/migrations`;
    return this.#read(path, (r, site) => parseBody(serverMigrationsSchema, r, site).migrations);
  }

  /** `GET /os-migrations?instance_uuid=…`: every migration of a server, finished ones included. */
  async listMigrations(filter: MigrationFilter): Promise<NovaMigrationRecord[]> {
    const query = new URLSearchParams({
      instance_uuid: id('instanceUuid', filter.instanceUuid),
      migration_type: filter.migrationType ?? 'live-migration',
    });
    return this.#read(
      `/os-migrations?${query}`,
      (r, site) => parseBody(migrationRecordsSchema, r, site).migrations,
    );
  }

  /** `POST /servers/{id}/migrations/{mid}/action` `force_complete`: pause the guest to finish. */
  async forceCompleteMigration(serverId: string, migrationId: number): Promise<void> {
    const path = `/servers/${id('serverId', serverId)}/migrations/${migration(migrationId)}/action`;
    await this.#send('POST', path, { force_complete: null });
  }

  /** `DELETE /servers/{id}/migrations/{mid}`: abort (queued and preparing ones too, >= 2.65). */
  async abortMigration(serverId: string, migrationId: number): Promise<void> {
    await this.#send('DELETE', `/servers/${id('serverId', serverId)}/migrations/${migration(migrationId)}`);
  }

  async #read<T>(path: string, parse: (response: HttpResponse, site: CallSite) => T): Promise<T> {
    return retryIdempotent(async () => {
      const response = await this.#send('GET', path);
      return parse(response, { service: 'compute', method: 'GET', path });
    }, this.#retry);
  }

  async #send(method: Method, path: string, body?: unknown, reauthenticated = false): Promise<HttpResponse> {
    const token = await this.#session.token();
    const base = await this.#session.endpoint({
      type: 'compute',
      interface: this.#options.interface,
      region: this.#options.region,
    });
    try {
      return await sendRequest({
        service: 'compute',
        method,
        url: base + path,
        body,
        headers: {
          'X-Auth-Token': token,
          'OpenStack-API-Version': `compute ${this.microversion}`,
          // The pre-2.27 header, for clouds behind proxies that still only pass that one.
          'X-OpenStack-Nova-API-Version': this.microversion,
        },
        timeoutMs: this.#options.timeoutMs ?? DEFAULT_NOVA_TIMEOUT_MS,
        fetch: this.#options.fetch,
        redact: (message) => this.#session.redact(scrub(message, [token])),
      });
    } catch (error) {
      // A 401 means the cached token was revoked early: authenticate once more, then give up.
      if (error instanceof OpenStackForbiddenError && error.status === 401 && !reauthenticated) {
        this.#session.invalidate(token);
        return this.#send(method, path, body, true);
      }
      throw error;
    }
  }
}

function id(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

function migration(value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RequestError(`migrationId must be a positive integer (Nova's migration id), got ${value}`);
  }
  return value;
}
