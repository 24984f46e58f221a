import type { HostState } from '../model/hostState.js';
import type { RequestedDestination, RequestSpec } from '../model/requestSpec.js';
import { type Candidates, candidateHosts, listCandidates } from './candidates.js';
import { fleetIndex } from './prefilter/fleetIndex.js';

/** The narrowing step that removed a host (reported like a filter in explanations). */
export type NarrowStage = 'requested_destination' | 'ignore_hosts' | 'force_hosts' | 'force_nodes';

/** The steps in the order they run; a recording stores a step's index + 1. */
export const NARROW_STAGES: readonly NarrowStage[] = [
  'requested_destination',
  'ignore_hosts',
  'force_hosts',
  'force_nodes',
];

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
 * The host narrowing at the top of Nova's `get_filtered_hosts` over candidate positions:
 * requested_destination (exact host, and node when given), then ignore_hosts (case-insensitive),
 * force_hosts (case-insensitive) and force_nodes (exact). Compacts `c` in place and returns true
 * when the filters must not run (see Narrowed.skipFilters). `record`, when given, gets the index + 1
 * of the step (NARROW_STAGES) that removed each position.
 */
export function narrowCandidates(c: Candidates, spec: RequestSpec, record: Uint8Array | null): boolean {
  const keep = (stage: number, ok: (h: HostState) => boolean) => {
    const { hosts, positions } = c;
    let kept = 0;
    for (let j = 0; j < c.count; j++) {
      const i = positions[j];
      if (ok(hosts[i])) positions[kept++] = i;
      else if (record !== null) record[i] = stage + 1;
    }
    c.count = kept;
  };
  const dest = spec.requested_destination;
  // Nova narrows whenever the field is set, so even an empty host name matches nothing.
  if (typeof dest?.host === 'string') {
    const { host, node } = dest;
    keep(0, (h) => h.host === host && (!node || h.nodename === node));
  }
  const { ignore_hosts: ignore, force_hosts: forceHosts, force_nodes: forceNodes } = spec;
  if (ignore.length === 0 && forceHosts.length === 0 && forceNodes.length === 0) return false;
  if (ignore.length > 0) {
    const ignored = new Set(ignore.map((h) => h.toLowerCase()));
    keep(1, (h) => !ignored.has(h.host.toLowerCase()));
    if (c.count === 0) return true;
  }
  if (forceHosts.length > 0) {
    const forced = new Set(forceHosts.map((h) => h.toLowerCase()));
    keep(2, (h) => forced.has(h.host.toLowerCase()));
  }
  if (forceNodes.length > 0) {
    const forced = new Set(forceNodes);
    keep(3, (h) => forced.has(h.nodename));
  }
  const forcing = forceHosts.length > 0 || forceNodes.length > 0;
  return forcing && !truthyHint(spec.scheduler_hints._nova_check_type);
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

/** narrowCandidates over a host list, with its removals (`record` keeps them for explanations). */
export function narrowHosts(input: readonly HostState[], spec: RequestSpec, record = false): Narrowed {
  const c = listCandidates(input, new Int32Array(input.length));
  const removedBy = record ? new Uint8Array(input.length) : null;
  const skipFilters = narrowCandidates(c, spec, removedBy);
  const removals: NarrowRemoval[] = [];
  if (removedBy)
    for (let s = 0; s < NARROW_STAGES.length; s++) {
      const stage = NARROW_STAGES[s];
      input.forEach((host, i) => {
        if (removedBy[i] === s + 1) removals.push({ host, stage, reason: () => narrowReason(stage, spec) });
      });
    }
  return { hosts: candidateHosts(c), skipFilters, removals };
}

/** True when narrowCandidates can remove a host from this request's candidates. */
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
