/** Nova's live-migration calls over the simulated fleet, raising the real driver's error classes. */

import {
  type CallSite,
  NovaConflictError,
  OpenStackBadRequestError,
  OpenStackNotFoundError,
  OpenStackUnavailableError,
} from '../openstack/errors.js';
import type { LiveMigrateOptions, MigrationFilter } from '../openstack/nova.js';
import type { NovaMigrationRecord, NovaServer, ServerMigration } from '../openstack/schemas.js';
import type { SimMigration, SimServer, SimulatedFleet } from './fleet.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class SimulatedNova {
  constructor(private readonly fleet: SimulatedFleet) {}

  async getServer(serverId: string): Promise<NovaServer> {
    const server = this.server('GET', `/servers/${serverId}`, serverId);
    return {
      id: server.uuid,
      name: server.uuid,
      status: server.status,
      host: server.host,
      hypervisorHostname: server.host,
      availabilityZone: null,
      taskState: server.taskState,
      vmState: server.status.toLowerCase(),
      metadata: {},
      addresses: [],
    };
  }

  async getServerMetadata(serverId: string): Promise<Record<string, string>> {
    this.server('GET', `/servers/${serverId}/metadata`, serverId);
    return {};
  }

  async liveMigrate(serverId: string, options: LiveMigrateOptions): Promise<void> {
    const site = this.site('POST', `/servers/${serverId}/action`);
    const server = this.server(site.method, site.path, serverId);
    if (server.taskState !== null || server.status !== 'ACTIVE') {
      throw new NovaConflictError(
        site,
        409,
        `Cannot 'os-migrateLive' instance ${serverId} while it is ${server.taskState ?? server.status}`,
      );
    }
    if (!options.host || options.host === server.host) {
      throw new OpenStackBadRequestError(
        site,
        400,
        'the simulation needs a destination other than the source',
      );
    }
    this.fleet.startMigration(server, options.host);
  }

  async listServerMigrations(serverId: string): Promise<ServerMigration[]> {
    this.server('GET', `/servers/${serverId}/migrations`, serverId);
    return (this.fleet.migrations.get(serverId) ?? [])
      .filter((m) => m.status === 'running')
      .map((m) => this.progress(m));
  }

  async listMigrations(filter: MigrationFilter): Promise<NovaMigrationRecord[]> {
    this.available(this.site('GET', '/os-migrations'));
    this.fleet.settle(filter.instanceUuid);
    return (this.fleet.migrations.get(filter.instanceUuid) ?? [])
      .map((m) => ({
        id: m.id,
        uuid: m.uuid,
        instanceUuid: filter.instanceUuid,
        status: m.status,
        migrationType: 'live-migration',
        sourceCompute: m.sourceCompute,
        destCompute: m.destCompute,
        createdAt: iso(m.startedAtMs),
        updatedAt: iso(m.updatedAtMs),
      }))
      .reverse();
  }

  async forceCompleteMigration(serverId: string, migrationId: number): Promise<void> {
    const m = this.running(
      'POST',
      `/servers/${serverId}/migrations/${migrationId}/action`,
      serverId,
      migrationId,
    );
    m.forced = true;
  }

  async abortMigration(serverId: string, migrationId: number): Promise<void> {
    const m = this.running('DELETE', `/servers/${serverId}/migrations/${migrationId}`, serverId, migrationId);
    this.fleet.finish(this.fleet.servers.get(serverId), m, 'cancelled');
  }

  private progress(m: SimMigration): ServerMigration {
    const done = this.fleet.progress(m);
    return {
      id: m.id,
      uuid: m.uuid,
      status: m.status,
      sourceCompute: m.sourceCompute,
      destCompute: m.destCompute,
      destNode: m.destCompute,
      memoryTotalBytes: m.memoryBytes,
      memoryProcessedBytes: Math.floor(m.memoryBytes * done),
      memoryRemainingBytes: m.memoryBytes - Math.floor(m.memoryBytes * done),
      diskTotalBytes: m.diskBytes,
      diskProcessedBytes: Math.floor(m.diskBytes * done),
      diskRemainingBytes: m.diskBytes - Math.floor(m.diskBytes * done),
      createdAt: iso(m.startedAtMs),
      updatedAt: iso(m.updatedAtMs),
    };
  }

  private running(method: string, path: string, serverId: string, migrationId: number): SimMigration {
    const site = this.site(method, path);
    this.server(method, path, serverId);
    const m = (this.fleet.migrations.get(serverId) ?? []).find((x) => x.id === migrationId);
    if (!m) throw new OpenStackNotFoundError(site, 404, `no migration ${migrationId} of ${serverId}`);
    if (m.status !== 'running')
      throw new OpenStackBadRequestError(site, 400, `migration ${migrationId} is ${m.status}`);
    return m;
  }

  private server(method: string, path: string, serverId: string): SimServer {
    const site = this.site(method, path);
    this.available(site);
    this.fleet.settle(serverId);
    const server = this.fleet.servers.get(serverId);
    if (!server) throw new OpenStackNotFoundError(site, 404, `Instance ${serverId} could not be found.`);
    return server;
  }

  private available(site: CallSite): void {
    if (this.fleet.chance(this.fleet.failures.novaUnavailable)) {
      throw new OpenStackUnavailableError(site, 503, 'simulated: the compute API is overloaded');
    }
  }

  private site(method: string, path: string): CallSite {
    return { service: 'compute', method, path };
  }
}
