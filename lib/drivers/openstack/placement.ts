/**
 * The Placement calls the inventory reads per compute node (the resource provider whose UUID is the
 * hypervisor's): inventories (totals, reserved, allocation ratios), usages, traits. Read-only, each
 * retried on retryable errors. Placement 1.6 is the first version with traits.
 */

import { DEFAULT_DRIVER_RETRY, type RetryPolicy, retryIdempotent } from '../retry.js';
import type { EndpointInterface } from './auth.js';
import { type FetchLike, parseBody } from './http.js';
import {
  type PlacementInventory,
  providerInventoriesSchema,
  providerTraitsSchema,
  providerUsagesSchema,
} from './inventorySchemas.js';
import type { TokenSource } from './keystone.js';
import { getFromService, type ServiceTarget } from './serviceCall.js';

export const PLACEMENT_MICROVERSION = '1.6';

export interface PlacementClientOptions {
  interface?: EndpointInterface;
  region?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchLike;
}

export class PlacementClient {
  readonly #session: TokenSource;
  readonly #target: ServiceTarget;
  readonly #retry: RetryPolicy;

  constructor(session: TokenSource, options: PlacementClientOptions = {}) {
    this.#session = session;
    this.#retry = { ...DEFAULT_DRIVER_RETRY, ...options.retry };
    this.#target = {
      service: 'placement',
      versionHeaders: { 'OpenStack-API-Version': `placement ${PLACEMENT_MICROVERSION}` },
      interface: options.interface,
      region: options.region,
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch,
    };
  }

  /** Resolves the endpoint now: throws EndpointNotFoundError when the catalog has no Placement. */
  async probe(): Promise<void> {
    await this.#session.endpoint({
      type: 'placement',
      interface: this.#target.interface,
      region: this.#target.region,
    });
  }

  async inventories(providerUuid: string): Promise<Record<string, PlacementInventory>> {
    const path = `/resource_providers/${encodeURIComponent(providerUuid)}/inventories`;
    return parseBody(providerInventoriesSchema, await this.#read(path), site(path)).inventories;
  }

  async usages(providerUuid: string): Promise<Record<string, number>> {
    const path = `/resource_providers/${encodeURIComponent(providerUuid)}/usages`;
    return parseBody(providerUsagesSchema, await this.#read(path), site(path)).usages;
  }

  async traits(providerUuid: string): Promise<string[]> {
    const path = `/resource_providers/${encodeURIComponent(providerUuid)}/traits`;
    return parseBody(providerTraitsSchema, await this.#read(path), site(path)).traits;
  }

  #read(path: string) {
    return retryIdempotent(() => getFromService(this.#session, this.#target, path), this.#retry);
  }
}

function site(path: string) {
  return { service: 'placement' as const, method: 'GET', path };
}
