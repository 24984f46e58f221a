/**
 * What a migration's drain may touch, found by the agent in the re-check before anything changes:
 * the Kubernetes node whose providerID (or address) is the VM, in the allowed clusters, and the
 * Consul node the catalog lists at one of the VM's Nova addresses, in the allowed datacenters. The
 * report's hints (server metadata) are used only under `trust.server_metadata`. Two candidates, or
 * one outside the allowlists, refuse the migration: nothing is drained, the VM is not moved, and
 * the record says why. Drain and undrain act only on what this returned.
 */
import type { ServerIdentity } from '../drivers/openstack/schemas.js';
import type { MigrationInput } from '../model/migration.js';
import { DrainTargetRefusedError } from './errors.js';
import type { AgentStepDeps } from './ports.js';
import type { DrainTargets } from './state.js';
import { guarded } from './translate.js';
import { DEFAULT_TRUST, type TrustPolicy } from './trust.js';

export async function findTargets(
  migration: MigrationInput,
  server: ServerIdentity,
  deps: AgentStepDeps,
): Promise<DrainTargets> {
  const trust = deps.trust ?? DEFAULT_TRUST;
  const refuse = (why: string): never => {
    throw new DrainTargetRefusedError(`VM ${migration.instance_uuid}: ${why}; it is not moved`);
  };
  return {
    kubernetes: await kubernetesTarget(migration, server, deps, trust, refuse),
    consul: await consulTarget(migration, server, deps, trust, refuse),
  };
}

async function kubernetesTarget(
  migration: MigrationInput,
  server: ServerIdentity,
  deps: AgentStepDeps,
  trust: TrustPolicy,
  refuse: (why: string) => never,
): Promise<DrainTargets['kubernetes']> {
  const allowed = trust.kubernetes.clusters;
  const clusters: Array<string | null> = allowed.length > 0 ? allowed : [null];
  let found: Array<{ cluster: string | null; node: string; by: string }> = [];
  if (trust.server_metadata && migration.kubernetes_node) {
    const cluster = migration.kubernetes_cluster ?? null;
    if (!clusters.includes(cluster))
      refuse(`Kubernetes cluster ${cluster} is not in trust.kubernetes.clusters`);
    found = [{ cluster, node: migration.kubernetes_node, by: 'server metadata' }];
  } else {
    for (const cluster of clusters) {
      const drainer = await guarded('pick the Kubernetes cluster', () => deps.drainer(cluster));
      const matches = await guarded("find the VM's Kubernetes node", () => drainer.nodesOfServer(server));
      found.push(...matches.map((m) => ({ cluster, node: m.name, by: m.by })));
    }
    // A providerID names the VM outright; an address only when nothing names it.
    if (found.some((f) => f.by === 'providerID')) found = found.filter((f) => f.by === 'providerID');
  }
  if (found.length === 0) return null;
  const where = (f: (typeof found)[number]) => `${f.node}${f.cluster ? ` in ${f.cluster}` : ''} (${f.by})`;
  if (found.length > 1) refuse(`several Kubernetes nodes match it: ${found.map(where).join(', ')}`);
  const [target] = found;
  const patterns = trust.kubernetes.node_names;
  if (patterns.length > 0 && !patterns.some((p) => new RegExp(`^(?:${p})$`).test(target.node))) {
    refuse(`Kubernetes node ${where(target)} matches no trust.kubernetes.node_names pattern`);
  }
  return { cluster: target.cluster, node: target.node };
}

async function consulTarget(
  migration: MigrationInput,
  server: ServerIdentity,
  deps: AgentStepDeps,
  trust: TrustPolicy,
  refuse: (why: string) => never,
): Promise<DrainTargets['consul']> {
  if (trust.server_metadata && migration.consul) return migration.consul;
  const maintenance = await deps.maintenance();
  const datacenters: Array<string | undefined> =
    trust.consul.datacenters.length > 0 ? trust.consul.datacenters : [undefined];
  const found: Array<{ node: string; address: string }> = [];
  for (const dc of datacenters) {
    const nodes = await guarded("find the VM's Consul node in the catalog", () =>
      maintenance.catalogNodesOf(server, dc),
    );
    // No catalog configured: Placid knows no Consul node for any VM, so touches none.
    if (nodes === null) return null;
    found.push(...nodes.map(({ node, address }) => ({ node, address })));
  }
  if (found.length === 0) return null;
  if (found.length > 1) {
    refuse(
      `several Consul nodes are listed at its addresses: ${found.map((f) => `${f.node} (${f.address})`).join(', ')}`,
    );
  }
  return found[0];
}
