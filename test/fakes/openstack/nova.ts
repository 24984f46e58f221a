/**
 * The fake Nova routes: the server, its metadata, os-migrateLive, its in-progress migrations,
 * force-complete, abort and `GET /os-migrations`, with Nova's status codes and fault bodies.
 */
import { type FakeReply, novaFault } from './http.js';
import { INVENTORY_ROUTES } from './inventoryRoutes.js';
import { type NovaCall, withServer } from './novaCall.js';
import { abort, forceComplete, list, listAll } from './novaMigrations.js';

export type NovaRouteName =
  | 'getServer'
  | 'getServerMetadata'
  | 'liveMigrate'
  | 'listServerMigrations'
  | 'listMigrations'
  | 'forceComplete'
  | 'abortMigration'
  | 'listHypervisors'
  | 'listServers'
  | 'listAggregates'
  | 'listServerGroups';

export interface NovaRoute {
  name: NovaRouteName;
  method: string;
  pattern: RegExp;
  /** Lowest microversion (minor) that has the route; older ones get 404 like Nova. */
  since: number;
  handle(call: NovaCall): FakeReply;
}

export const NOVA_ROUTES: readonly NovaRoute[] = [
  // First: `/servers/detail` would otherwise match getServer's `/servers/{id}`.
  ...INVENTORY_ROUTES,
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
        addresses: { private: s.addresses.map((addr) => ({ addr, version: addr.includes(':') ? 6 : 4 })) },
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
