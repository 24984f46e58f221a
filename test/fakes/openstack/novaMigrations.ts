/**
 * The fake Nova's migration routes: a server's in-progress migrations, `GET /os-migrations` (all of
 * them, finished ones included), force-complete and abort, with Nova's preconditions and codes.
 */
import { type FakeReply, novaFault } from './http.js';
import { type NovaCall, withServer } from './novaCall.js';
import { type FakeMigration, type FakeServer, IN_PROGRESS } from './state.js';

// Nova's timestamps: ISO 8601 without the zone.
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '');

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

export function list(call: NovaCall): FakeReply {
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

export function listAll(call: NovaCall): FakeReply {
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

export function forceComplete(call: NovaCall): FakeReply {
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

export function abort(call: NovaCall): FakeReply {
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
