import type { RequestSpec } from '../../model/requestSpec.js';
import { NoValidHostError } from '../errors.js';
import type { Fleet } from '../fleet.js';

export const IN_TREE = 'Placement:in_tree';

/**
 * The compute-node lookup of Nova's `resources_from_request_spec`: the target is
 * requested_destination host/node, else force_hosts[0] / force_nodes[0]. No matching node fails the
 * request; exactly one becomes Placement's `in_tree` (its position is returned); several (a host with
 * many nodes) only lift Placement's limit, so nothing is narrowed here (-1).
 *
 * Host names match case-insensitively (Nova's lookup goes through a case-insensitive database
 * collation, and get_filtered_hosts lower-cases force_hosts too); node names match exactly.
 */
export function forcedHostPosition(spec: RequestSpec, index: Fleet): number {
  const dest = spec.requested_destination;
  const host = dest?.host || spec.force_hosts[0] || null;
  const node = dest?.node || spec.force_nodes[0] || null;
  if (!host && !node) return -1;
  const { byHost, byNode } = index.names;
  let found = host ? (byHost.get(host.toLowerCase()) ?? []) : (byNode.get(node!) ?? []);
  if (host && node) found = found.filter((i) => index.hosts[i].nodename === node);
  // The lookup is limited to the requested cell when one is given.
  const cell = dest?.cell;
  if (cell) found = found.filter((i) => index.hosts[i].cell_uuid === cell);
  if (found.length === 0) {
    const where = cell ? ` in cell ${cell}` : '';
    throw new NoValidHostError(
      `No such host - host: ${host ?? 'None'} node: ${node ?? 'None'}${where}. ` +
        'No compute node in the fleet matches the forced or requested destination.',
    );
  }
  return found.length === 1 ? found[0] : -1;
}
