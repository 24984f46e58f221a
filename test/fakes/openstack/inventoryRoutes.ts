/**
 * The fake Nova's inventory routes: os-hypervisors/detail and servers/detail (paged by limit and
 * marker, with a `next` link), os-aggregates, and os-server-groups (paged by limit and offset),
 * each shaped by the requested microversion the way Nova shapes it.
 */
import { type FakeReply, novaFault } from './http.js';
import type { FakeHypervisor } from './inventoryState.js';
import type { NovaRoute } from './nova.js';
import type { NovaCall } from './novaCall.js';
import type { FakeServer } from './state.js';

// Next links deliberately name another host: clients must take only the marker from them.
const LINK_BASE = 'http://nova.link.invalid/v2.1';

export const INVENTORY_ROUTES: readonly NovaRoute[] = [
  {
    name: 'listHypervisors',
    method: 'GET',
    pattern: /^\/os-hypervisors\/detail$/,
    since: 1,
    handle: (call) =>
      page(
        call,
        call.state.inventory.hypervisors,
        (h) => h.id,
        'hypervisors',
        '/os-hypervisors/detail',
        (h) => hypervisorBody(call, h),
      ),
  },
  {
    name: 'listServers',
    method: 'GET',
    pattern: /^\/servers\/detail$/,
    since: 1,
    handle: (call) =>
      page(
        call,
        [...call.state.servers.values()],
        (s) => s.id,
        'servers',
        '/servers/detail',
        (s) => serverBody(call, s),
      ),
  },
  { name: 'listAggregates', method: 'GET', pattern: /^\/os-aggregates$/, since: 1, handle: aggregates },
  {
    name: 'listServerGroups',
    method: 'GET',
    pattern: /^\/os-server-groups$/,
    since: 1,
    handle: serverGroups,
  },
];

/** One page of `items` after `marker`, with a `next` link when more remain. */
function page<T>(
  call: NovaCall,
  items: readonly T[],
  idOf: (item: T) => string,
  key: string,
  path: string,
  render: (item: T) => unknown,
): FakeReply {
  const limit = pageLimit(call);
  if (typeof limit !== 'number') return limit;
  const marker = call.query.get('marker');
  let start = 0;
  if (marker !== null) {
    const at = items.findIndex((item) => idOf(item) === marker);
    if (at < 0) return novaFault(400, `marker [${marker}] not found`);
    start = at + 1;
  }
  const slice = items.slice(start, start + limit);
  const body: Record<string, unknown> = { [key]: slice.map(render) };
  if (start + limit < items.length && slice.length > 0) {
    const next = new URLSearchParams({ limit: String(limit), marker: idOf(slice[slice.length - 1]) });
    body[`${key}_links`] = [{ rel: 'next', href: `${LINK_BASE}${path}?${next}` }];
  }
  return { status: 200, body };
}

function pageLimit(call: NovaCall): number | FakeReply {
  const max = call.state.inventory.maxPageSize;
  const raw = call.query.get('limit');
  if (raw === null) return max;
  const limit = Number(raw);
  if (!(Number.isInteger(limit) && limit >= 0))
    return novaFault(400, `Invalid input for query parameters limit. Value: ${raw}.`);
  return Math.min(limit, max);
}

function hypervisorBody(call: NovaCall, h: FakeHypervisor) {
  const service = { host: h.host, id: `svc-${h.host}`, disabled_reason: h.disabledReason };
  const base = {
    id: h.id,
    hypervisor_hostname: h.nodename,
    state: h.state,
    status: h.status,
    host_ip: h.hostIp,
    hypervisor_type: h.hypervisorType,
    hypervisor_version: h.hypervisorVersion,
    service,
  };
  if (call.minor >= 88) return base;
  const u = call.state.inventory.usage(h, call.state.servers.values());
  return {
    ...base,
    vcpus: h.vcpus,
    vcpus_used: u.vcpusUsed,
    memory_mb: h.memoryMb,
    memory_mb_used: u.memoryMbUsed,
    local_gb: h.localGb,
    local_gb_used: u.localGbUsed,
    free_ram_mb: h.memoryMb - u.memoryMbUsed,
    free_disk_gb: h.localGb - u.localGbUsed,
    running_vms: u.runningVms,
    current_workload: 0,
    disk_available_least: h.localGb - u.localGbUsed,
    cpu_info:
      call.minor >= 28 ? { arch: 'x86_64', vendor: 'Intel' } : '{"arch": "x86_64", "vendor": "Intel"}',
  };
}

function serverBody(call: NovaCall, s: FakeServer) {
  const flavor =
    call.minor >= 47
      ? {
          original_name: s.flavor.name,
          vcpus: s.flavor.vcpus,
          ram: s.flavor.ram,
          disk: s.flavor.disk,
          ephemeral: s.flavor.ephemeral,
          swap: s.flavor.swap,
          extra_specs: {},
        }
      : { id: s.flavor.name, links: [] };
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    tenant_id: 'p-demo',
    metadata: s.metadata,
    ...(call.minor >= 26 ? { tags: s.tags } : {}),
    'OS-EXT-SRV-ATTR:host': s.host,
    'OS-EXT-SRV-ATTR:hypervisor_hostname': s.hypervisorHostname,
    'OS-EXT-AZ:availability_zone': s.availabilityZone,
    'OS-EXT-STS:task_state': s.taskState,
    'OS-EXT-STS:vm_state': s.vmState,
    flavor,
    image: s.bootFromVolume ? '' : { id: 'img-cirros', links: [] },
    addresses: { private: s.addresses.map((addr) => ({ addr, version: addr.includes(':') ? 6 : 4 })) },
  };
}

function aggregates(call: NovaCall): FakeReply {
  return {
    status: 200,
    body: {
      aggregates: call.state.inventory.aggregates.map((a) => ({
        id: a.id,
        ...(call.minor >= 41 ? { uuid: a.uuid } : {}),
        name: a.name,
        availability_zone: a.availabilityZone,
        hosts: a.hosts,
        // Nova shows the zone in the metadata too.
        metadata: a.availabilityZone ? { ...a.metadata, availability_zone: a.availabilityZone } : a.metadata,
      })),
    },
  };
}

function serverGroups(call: NovaCall): FakeReply {
  const limit = pageLimit(call);
  if (typeof limit !== 'number') return limit;
  const offset = Number(call.query.get('offset') ?? 0);
  const groups = call.state.inventory.serverGroups.slice(offset, offset + limit);
  return {
    status: 200,
    body: {
      server_groups: groups.map((g) => ({
        id: g.id,
        name: g.name,
        ...(call.minor >= 64 ? { policy: g.policy, rules: {} } : { policies: [g.policy] }),
        members: g.members,
        project_id: 'p-demo',
        user_id: 'u-demo',
      })),
    },
  };
}
