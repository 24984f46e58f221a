import type { HostState } from '../model/hostState.js';
import type { RequestedDestination, RequestSpec } from '../model/requestSpec.js';
import { fleetIndex } from './prefilter/fleetIndex.js';

/** The narrowing step that removed a host (reported like a filter in explanations). */
export type NarrowStage = 'requested_destination' | 'ignore_hosts' | 'force_hosts' | 'force_nodes';

/** A host the narrowing removed; the reason is built only when asked for. */
export interface NarrowRemoval {
  host: HostState;
  stage: NarrowStage;
  reason: () => string;
}

export interface Narrowed {
  hosts: readonly HostState[];
  /**
   * True when the filters must not run: forced hosts/nodes bypass every filter unless the request
   * carries `_nova_check_type`, and Nova returns at once when ignore_hosts leaves nothing.
   */
  skipFilters: boolean;
  removals: NarrowRemoval[];
}

/**
 * The host narrowing at the top of Nova's `get_filtered_hosts`: requested_destination (exact host,
 * and node when given), then ignore_hosts (case-insensitive), force_hosts (case-insensitive) and
 * force_nodes (exact). `record` keeps the removed hosts for explanations.
 */
export function narrowHosts(input: readonly HostState[], spec: RequestSpec, record = false): Narrowed {
  const removals: NarrowRemoval[] = [];
  const keep = (
    hosts: readonly HostState[],
    stage: NarrowStage,
    ok: (h: HostState) => boolean,
    why: () => string,
  ) => {
    const kept: HostState[] = [];
    for (const h of hosts) {
      if (ok(h)) kept.push(h);
      else if (record) removals.push({ host: h, stage, reason: why });
    }
    return kept;
  };

  let hosts = input;
  const dest = spec.requested_destination;
  // Nova narrows whenever the field is set, so even an empty host name matches nothing.
  if (typeof dest?.host === 'string') {
    const { host, node } = dest;
    hosts = keep(
      hosts,
      'requested_destination',
      (h) => h.host === host && (!node || h.nodename === node),
      () =>
        `the request is for host '${host}'${node ? ` node '${node}'` : ''} (requested_destination; exact match)`,
    );
  }
  const { ignore_hosts: ignore, force_hosts: forceHosts, force_nodes: forceNodes } = spec;
  if (ignore.length === 0 && forceHosts.length === 0 && forceNodes.length === 0) {
    return { hosts, skipFilters: false, removals };
  }
  if (ignore.length > 0) {
    const ignored = new Set(ignore.map((h) => h.toLowerCase()));
    hosts = keep(
      hosts,
      'ignore_hosts',
      (h) => !ignored.has(h.host.toLowerCase()),
      () =>
        `the request's ignore_hosts lists this host (${ignore.join(', ')}; names match case-insensitively)`,
    );
    if (hosts.length === 0) return { hosts, skipFilters: true, removals };
  }
  if (forceHosts.length > 0) {
    const forced = new Set(forceHosts.map((h) => h.toLowerCase()));
    hosts = keep(
      hosts,
      'force_hosts',
      (h) => forced.has(h.host.toLowerCase()),
      () => `the request forces hosts ${forceHosts.join(', ')} (force_hosts; names match case-insensitively)`,
    );
  }
  if (forceNodes.length > 0) {
    const forced = new Set(forceNodes);
    hosts = keep(
      hosts,
      'force_nodes',
      (h) => forced.has(h.nodename),
      () => `the request forces nodes ${forceNodes.join(', ')} (force_nodes; exact match)`,
    );
  }
  const forcing = forceHosts.length > 0 || forceNodes.length > 0;
  return { hosts, skipFilters: forcing && !truthyHint(spec.scheduler_hints._nova_check_type), removals };
}

/** True when narrowHosts can remove a host from this request's candidates. */
export function narrows(spec: RequestSpec): boolean {
  return (
    typeof spec.requested_destination?.host === 'string' ||
    spec.ignore_hosts.length > 0 ||
    spec.force_hosts.length > 0 ||
    spec.force_nodes.length > 0
  );
}

/** Python truthiness of a stored hint: a missing hint or an empty list is false. */
function truthyHint(value: readonly string[] | undefined): boolean {
  return value !== undefined && value.length > 0;
}

/**
 * The compute-node lookup of Nova's `resources_from_request_spec` rewrites a requested destination
 * that resolves to exactly one node to that node's own host and node names (the lookup matches host
 * names case-insensitively), so the exact-match narrowing above then finds it. The target is the
 * destination's host/node, else force_hosts[0] / force_nodes[0]; `fleet` is every known host.
 */
export function resolvedDestination(
  spec: RequestSpec,
  fleet: readonly HostState[],
): RequestedDestination | null {
  const dest = spec.requested_destination;
  if (!dest) return dest;
  const host = dest.host || spec.force_hosts[0] || null;
  const node = dest.node || spec.force_nodes[0] || null;
  if (!host && !node) return dest;
  const { byHost, byNode } = fleetIndex(fleet).names;
  const found = (host ? byHost.get(host.toLowerCase()) : byNode.get(node!)) ?? [];
  const matches = found.filter(
    (i) => (!node || fleet[i].nodename === node) && (!dest.cell || fleet[i].cell_uuid === dest.cell),
  );
  // Several nodes only lift Placement's limit: the destination is left as it is.
  if (matches.length !== 1) return dest;
  const match = fleet[matches[0]];
  return { ...dest, host: match.host, node: match.nodename };
}
