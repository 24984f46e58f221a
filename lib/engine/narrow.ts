import type { HostState } from '../model/hostState.js';
import type { RequestedDestination, RequestSpec } from '../model/requestSpec.js';
import type { Fleet } from './fleet.js';

/** The narrowing step that removed a host (reported like a filter in explanations). */
export type NarrowStage = 'requested_destination' | 'ignore_hosts' | 'force_hosts' | 'force_nodes';

/** A host the narrowing removed; the reason is built only when asked for. */
export interface NarrowRemoval {
  host: HostState;
  stage: NarrowStage;
  reason: () => string;
}

export interface Narrowed {
  hosts: HostState[];
  /**
   * True when the filters must not run: forced hosts/nodes bypass every filter unless the request
   * carries `_nova_check_type`, and Nova returns at once when ignore_hosts leaves nothing.
   */
  skipFilters: boolean;
  /** Every removed host with its step, steps in order (empty unless recorded). */
  removals: NarrowRemoval[];
}

/**
 * The host narrowing at the top of Nova's `get_filtered_hosts`: requested_destination (exact host,
 * and node when given), then ignore_hosts (case-insensitive), force_hosts (case-insensitive) and
 * force_nodes (exact). With `record`, the removals are kept for an explanation.
 */
export function narrowHosts(input: readonly HostState[], spec: RequestSpec, record = false): Narrowed {
  let hosts = input as HostState[];
  const removals: NarrowRemoval[] = [];
  const keep = (stage: NarrowStage, ok: (h: HostState) => boolean) => {
    const kept: HostState[] = [];
    for (const host of hosts) {
      if (ok(host)) kept.push(host);
      else if (record) removals.push({ host, stage, reason: () => narrowReason(stage, spec) });
    }
    hosts = kept;
  };
  const done = (skipFilters: boolean): Narrowed => ({ hosts: hosts.slice(), skipFilters, removals });
  const dest = spec.requested_destination;
  // Nova narrows whenever the field is set, so even an empty host name matches nothing.
  if (typeof dest?.host === 'string') {
    const { host, node } = dest;
    keep('requested_destination', (h) => h.host === host && (!node || h.nodename === node));
  }
  const { ignore_hosts: ignore, force_hosts: forceHosts, force_nodes: forceNodes } = spec;
  if (ignore.length > 0) {
    const ignored = new Set(ignore.map((h) => h.toLowerCase()));
    keep('ignore_hosts', (h) => !ignored.has(h.host.toLowerCase()));
    if (hosts.length === 0) return done(true);
  }
  if (forceHosts.length > 0) {
    const forced = new Set(forceHosts.map((h) => h.toLowerCase()));
    keep('force_hosts', (h) => forced.has(h.host.toLowerCase()));
  }
  if (forceNodes.length > 0) {
    const forced = new Set(forceNodes);
    keep('force_nodes', (h) => forced.has(h.nodename));
  }
  const forcing = forceHosts.length > 0 || forceNodes.length > 0;
  return done(forcing && !truthyHint(spec.scheduler_hints._nova_check_type));
}

/** Why a narrowing step removes hosts from this request's candidates. */
export function narrowReason(stage: NarrowStage, spec: RequestSpec): string {
  switch (stage) {
    case 'requested_destination': {
      const { host, node } = spec.requested_destination ?? {};
      return `the request is for host '${host}'${node ? ` node '${node}'` : ''} (requested_destination; exact match)`;
    }
    case 'ignore_hosts':
      return `the request's ignore_hosts lists this host (${spec.ignore_hosts.join(', ')}; names match case-insensitively)`;
    case 'force_hosts':
      return `the request forces hosts ${spec.force_hosts.join(', ')} (force_hosts; names match case-insensitively)`;
    case 'force_nodes':
      return `the request forces nodes ${spec.force_nodes.join(', ')} (force_nodes; exact match)`;
  }
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
export function resolvedDestination(spec: RequestSpec, fleet: Fleet): RequestedDestination | null {
  const dest = spec.requested_destination;
  if (!dest) return dest;
  const host = dest.host || spec.force_hosts[0] || null;
  const node = dest.node || spec.force_nodes[0] || null;
  if (!host && !node) return dest;
  const { hosts, names } = fleet;
  const found = (host ? names.byHost.get(host.toLowerCase()) : names.byNode.get(node!)) ?? [];
  const matches = found.filter(
    (i) => (!node || hosts[i].nodename === node) && (!dest.cell || hosts[i].cell_uuid === dest.cell),
  );
  // Several nodes only lift Placement's limit: the destination is left as it is.
  if (matches.length !== 1) return dest;
  const match = hosts[matches[0]];
  return { ...dest, host: match.host, node: match.nodename };
}
