import type { HostState } from '../model/hostState.js';
import type { RequestSpec } from '../model/requestSpec.js';

export interface Narrowed {
  hosts: HostState[];
  /** Forced hosts/nodes bypass every filter unless the request carries `_nova_check_type`. */
  skipFilters: boolean;
}

/**
 * The host narrowing at the top of Nova's `get_filtered_hosts`: requested_destination, then
 * ignore_hosts (case-insensitive), force_hosts (case-insensitive) and force_nodes (exact).
 */
export function narrowHosts(input: readonly HostState[], spec: RequestSpec): Narrowed {
  let hosts = input as HostState[];
  const dest = spec.requested_destination;
  if (dest?.host) {
    hosts = hosts.filter((h) => h.host === dest.host && (!dest.node || h.nodename === dest.node));
  }
  const { ignore_hosts: ignore, force_hosts: forceHosts, force_nodes: forceNodes } = spec;
  if (ignore.length === 0 && forceHosts.length === 0 && forceNodes.length === 0) {
    return { hosts: hosts === input ? hosts.slice() : hosts, skipFilters: false };
  }
  const ignored = new Set(ignore.map((h) => h.toLowerCase()));
  hosts = hosts.filter((h) => !ignored.has(h.host.toLowerCase()));
  if (hosts.length === 0) return { hosts, skipFilters: false };
  if (forceHosts.length > 0) {
    const forced = new Set(forceHosts.map((h) => h.toLowerCase()));
    hosts = hosts.filter((h) => forced.has(h.host.toLowerCase()));
  }
  if (forceNodes.length > 0) {
    const forced = new Set(forceNodes);
    hosts = hosts.filter((h) => forced.has(h.nodename));
  }
  const forcing = forceHosts.length > 0 || forceNodes.length > 0;
  return { hosts, skipFilters: forcing && spec.scheduler_hints._nova_check_type === undefined };
}
