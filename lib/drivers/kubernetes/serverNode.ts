/**
 * Which Kubernetes node is a Nova server, from what the cluster and Nova say, never from what a
 * tenant can write: the node whose `spec.providerID` names the server (cloud-provider-openstack sets
 * `openstack:///<server uuid>`, or `openstack://<region>/<server uuid>`), else the nodes whose
 * InternalIP/ExternalIP is one of the server's Nova addresses. A providerID match outranks an
 * address match; the caller refuses more than one.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { ServerIdentity } from '../openstack/schemas.js';
import type { NodeMatch } from './types.js';

const PROVIDER_ID = /^openstack:\/\/[^/]*\/([^/]+)$/;
const ADDRESS_TYPES = new Set(['InternalIP', 'ExternalIP']);

export function nodesOfServer(nodes: readonly V1Node[], server: ServerIdentity): NodeMatch[] {
  const named = (node: V1Node) => node.metadata?.name ?? '';
  const byProvider = nodes.filter((n) => PROVIDER_ID.exec(n.spec?.providerID ?? '')?.[1] === server.id);
  if (byProvider.length > 0) return byProvider.map((n) => ({ name: named(n), by: 'providerID' }));
  const addresses = new Set(server.addresses);
  return nodes
    .filter((n) =>
      (n.status?.addresses ?? []).some((a) => ADDRESS_TYPES.has(a.type) && addresses.has(a.address)),
    )
    .map((n) => ({ name: named(n), by: 'address' }));
}
