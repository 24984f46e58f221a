/**
 * The fake Nova routes: the server, its metadata, os-migrateLive, its in-progress migrations,
 * force-complete, abort and `GET /os-migrations`, with Nova's status codes and fault bodies.
 */
import { type FakeReply, novaFault } from './http.js';
import { type FakeCloudState, type FakeMigration, type FakeServer, IN_PROGRESS } from './state.js';

export type NovaRouteName =
  | 'getServer'
  | 'getServerMetadata'
  | 'liveMigrate'
  | 'listServerMigrations'
  | 'listMigrations'
  | 'forceComplete'
  | 'abortMigration';

export interface NovaCall {
  state: FakeCloudState;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  /** Minor version of the requested `2.x` microversion. */
  minor: number;
  /** Hosts a migration may target; empty means any. */
  knownHosts: ReadonlySet<string>;
}

interface NovaRoute {
  name: NovaRouteName;
  method: string;
  pattern: RegExp;
  /** Lowest microversion (minor) that has the route; older ones get 404 like Nova. */
  since: number;
  handle(call: NovaCall): FakeReply;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '');

export const NOVA_ROUTES: readonly NovaRoute[] = [
  { name: 'getServer', method: 'GET', pattern: /^\/servers\/([^/]+)$/, since: 1, handle: getServer },
  {
    name: 'getServerMetadata',
    method: 'GET',
    pattern: /^\/servers\/([^/]+)\/metadata$/,
    since: 1,
    handle: metadata,
  },
  {
    name: 'liveMigrate',
    method: 'POST',
    pattern: /^\/servers\/([^/]+)\/action$/,
    since: 1,
    handle: liveMigrate,
  },
  {
    name: 'listServerMigrations',
    method: 'GET',
    pattern: /^\/servers\/([^/]+)\/migrations$/,
    since: 23,
    handle: list,
  },
  { name: 'listMigrations', method: 'GET', pattern: /^\/os-migrations$/, since: 1, handle: listAll },
  {
    name: 'forceComplete',
    method: 'POST',
    pattern: /^\/servers\/([^/]+)\/migrations\/([^/]+)\/action$/,
    since: 22,
    handle: forceComplete,
  },
  {
    name: 'abortMigration',
    method: 'DELETE',
    pattern: /^\/servers\/([^/]+)\/migrations\/([^/]+)$/,
    since: 24,
    handle: abort,
  },
];

function withServer(call: NovaCall, then: (server: FakeServer) => FakeReply): FakeReply {
  const server = call.state.servers.get(call.params[0]);
  return server ? then(server) : novaFault(404, `Instance ${call.params[0]} could not be found.`);
}

function getServer(call: NovaCall): FakeReply {
  call.state.advance(call.params[0]);
  return withServer(call, (s) => ({
    status: 200,
    body: {
      server: {
        id: s.id,
        name: s.name,
        status: s.status,
        'OS-EXT-SRV-ATTR:host': s.host,
        'OS-EXT-SRV-ATTR:hypervisor_hostname': s.hypervisorHostname,
        'OS-EXT-AZ:availability_zone': s.availabilityZone,
        'OS-EXT-STS:task_state': s.taskState,
        'OS-EXT-STS:vm_state': s.vmState,
        'OS-EXT-STS:power_state': 1,
        metadata: s.metadata,
      },
    },
  }));
}

function metadata(call: NovaCall): FakeReply {
  return withServer(call, (s) => ({ status: 200, body: { metadata: s.metadata } }));
}

function liveMigrate(call: NovaCall): FakeReply {
  const action = (
    call.body as { 'os-migrateLive'?: { host?: unknown; block_migration?: unknown; force?: unknown } }
  )?.['os-migrateLive'];
  if (!action) return novaFault(400, 'Only the os-migrateLive action is supported by this fake.');
  const block = action.block_migration;
  if (!(typeof block === 'boolean' || (block === 'auto' && call.minor >= 25))) {
    return novaFault(
      400,
      "Invalid input for field/attribute block_migration. Value: must be a boolean or 'auto'.",
    );
  }
  if (action.force !== undefined && call.minor >= 68) {
    return novaFault(400, "Additional properties are not allowed ('force' was unexpected)");
  }
  const host = action.host ?? null;
  if (host !== null && typeof host !== 'string')
    return novaFault(400, 'Invalid input for field/attribute host.');
  return withServer(call, (server) => {
    if (server.taskState !== null || server.vmState !== 'active') {
      return novaFault(
        409,
        `Cannot 'os-migrateLive' instance ${server.id} while it is in ${
          server.taskState !== null ? `task_state ${server.taskState}` : `vm_state ${server.vmState}`
        }`,
      );
    }
    if (host !== null && call.knownHosts.size > 0 && !call.knownHosts.has(host)) {
      return novaFault(400, `Compute host ${host} could not be found.`);
    }
    // No host: the fake's "scheduler" takes any other known host; none left fails like NoValidHost.
    const destination = host ?? [...call.knownHosts].find((h) => h !== server.host) ?? server.host;
    call.state.startMigration(server, destination);
    return { status: 202 };
  });
}

function serverMigrationBody(m: FakeMigration) {
  return {
    id: m.id,
    uuid: m.uuid,
    server_uuid: m.serverId,
    status: m.status,
    source_compute: m.sourceCompute,
    source_node: m.sourceCompute,
    dest_compute: m.destCompute,
    dest_node: m.destCompute,
    dest_host: '192.0.2.10',
    memory_total_bytes: m.memoryTotalBytes,
    memory_processed_bytes: m.memoryProcessedBytes,
    memory_remaining_bytes: m.memoryTotalBytes - m.memoryProcessedBytes,
    disk_total_bytes: m.diskTotalBytes,
    disk_processed_bytes: m.diskProcessedBytes,
    disk_remaining_bytes: m.diskTotalBytes - m.diskProcessedBytes,
    created_at: iso(m.createdAtMs),
    updated_at: iso(m.updatedAtMs),
  };
}

function list(call: NovaCall): FakeReply {
  call.state.advance(call.params[0]);
  return withServer(call, (server) => ({
    status: 200,
    body: {
      migrations: call.state.migrations
        .filter((m) => m.serverId === server.id && IN_PROGRESS.has(m.status))
        .map(serverMigrationBody),
    },
  }));
}

function listAll(call: NovaCall): FakeReply {
  const instance = call.query.get('instance_uuid');
  const type = call.query.get('migration_type');
  if (instance !== null) call.state.advance(instance);
  const rows = call.state.migrations
    .filter(
      (m) => (instance === null || m.serverId === instance) && (type === null || m.migrationType === type),
    )
    .sort((a, b) => b.createdAtMs - a.createdAtMs || b.id - a.id)
    .map((m) => ({
      id: m.id,
      uuid: m.uuid,
      instance_uuid: m.serverId,
      status: m.status,
      migration_type: m.migrationType,
      source_compute: m.sourceCompute,
      dest_compute: m.destCompute,
      created_at: iso(m.createdAtMs),
      updated_at: iso(m.updatedAtMs),
    }));
  return { status: 200, body: { migrations: rows } };
}

function withMigration(call: NovaCall, then: (server: FakeServer, m: FakeMigration) => FakeReply): FakeReply {
  return withServer(call, (server) => {
    const migration = call.state.migrations.find(
      (m) => String(m.id) === call.params[1] && m.serverId === server.id,
    );
    if (!migration) {
      return novaFault(404, `Instance ${server.id} does not have a migration with id ${call.params[1]}`);
    }
    if (server.taskState !== 'migrating') {
      return novaFault(409, `Cannot do this action to instance ${server.id} while it is in task_state None`);
    }
    return then(server, migration);
  });
}

function forceComplete(call: NovaCall): FakeReply {
  if (!(call.body && typeof call.body === 'object' && 'force_complete' in call.body)) {
    return novaFault(400, 'Only the force_complete action is supported by this fake.');
  }
  return withMigration(call, (server, migration) => {
    if (migration.status !== 'running') {
      return novaFault(
        400,
        `Migration ${migration.id} state of instance ${server.id} is ${migration.status}.`,
      );
    }
    call.state.forceComplete(migration);
    return { status: 202 };
  });
}

function abort(call: NovaCall): FakeReply {
  return withMigration(call, (server, migration) => {
    const abortable = call.minor >= 65 ? IN_PROGRESS.has(migration.status) : migration.status === 'running';
    if (!abortable || migration.status === 'post-migrating') {
      return novaFault(
        400,
        `Migration ${migration.id} state of instance ${server.id} is ${migration.status}.`,
      );
    }
    call.state.abort(migration);
    return { status: 202 };
  });
}
