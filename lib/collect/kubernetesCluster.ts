/**
 * Which Kubernetes cluster a VM's node belongs to (its report's `kubernetes_cluster`), so a drain
 * reaches the right API server when the kubernetes secret maps several (`{"clusters": {...}}`).
 * The operator says it one of two ways: a metadata key on the server (what a cluster's installer
 * can set on every VM it creates), or a metadata key on a host aggregate, for clouds that dedicate
 * hosts to clusters. The server's own metadata wins; a host whose aggregates name two different
 * clusters gives none, and the run says so (its VMs would otherwise be drained in the wrong one).
 */
import type { InventoryAggregate, InventoryServer } from './ports.js';

export interface ClusterKeys {
  /** Server metadata key naming the cluster; null: not read. */
  serverKey: string | null;
  /** Host aggregate metadata key naming the cluster of its hosts' VMs; null: not read. */
  aggregateKey: string | null;
}

export interface ClusterResolver {
  /** The cluster of a server placed on `host`; null: none named (the secret's default cluster). */
  clusterOf(server: InventoryServer, host: string): string | null;
  /** Hosts whose aggregates name different clusters, as sentences for the run summary. */
  conflicts: string[];
}

export function clusterResolver(
  aggregates: readonly InventoryAggregate[],
  keys: ClusterKeys,
): ClusterResolver {
  const byHost = new Map<string, Set<string>>();
  if (keys.aggregateKey !== null) {
    for (const aggregate of aggregates) {
      const cluster = aggregate.metadata[keys.aggregateKey];
      if (!cluster) continue;
      for (const host of aggregate.hosts) byHost.set(host, (byHost.get(host) ?? new Set()).add(cluster));
    }
  }
  const conflicts = [...byHost]
    .filter(([, clusters]) => clusters.size > 1)
    .map(
      ([host, clusters]) =>
        `host ${host} is in aggregates naming Kubernetes clusters ${[...clusters].sort().join(', ')} ` +
        `(${keys.aggregateKey}): its VMs report none unless their own metadata names one`,
    );
  return {
    conflicts,
    clusterOf: (server, host) => {
      const own = keys.serverKey === null ? undefined : server.metadata[keys.serverKey];
      if (own) return own;
      const fromHost = byHost.get(host);
      return fromHost?.size === 1 ? [...fromHost][0] : null;
    },
  };
}
