/**
 * Several Kubernetes clusters behind one deployment. A VM's report names the cluster of its
 * `kubernetes_node` (`kubernetes_cluster`); the kubernetes secret (or agent configuration) maps
 * cluster names to connections:
 *
 *   {"clusters": {"prod-a": {"server": "https://…", "token": "…", "ca": "…"},
 *                 "prod-b": {"kubeconfig": "…", "context": "prod-b-admin"}},
 *    "default": "prod-a"}
 *
 * A single connection (the older form) serves reports that name no cluster, or the one its
 * `cluster` field names. Picking by name means a node called `worker-1` in two clusters is never
 * drained in the wrong one; an unknown name is a permanent, typed error rather than a 404.
 */
import { UnknownKubernetesClusterError } from './errors.js';

type Settings = Readonly<Record<string, unknown>>;

/** The connection settings for `cluster` (null: the report names none). */
export function clusterConnection(settings: Settings, cluster: string | null | undefined): unknown {
  const wanted = cluster ?? null;
  const clusters = settings.clusters;
  if (clusters !== undefined) {
    if (typeof clusters !== 'object' || clusters === null || Array.isArray(clusters)) {
      throw new UnknownKubernetesClusterError(wanted, []);
    }
    const byName = clusters as Record<string, unknown>;
    const name = wanted ?? (typeof settings.default === 'string' ? settings.default : null);
    if (name === null || !Object.hasOwn(byName, name)) {
      throw new UnknownKubernetesClusterError(wanted, Object.keys(byName));
    }
    return byName[name];
  }
  const { cluster: own, ...connection } = settings;
  if (wanted !== null && own !== wanted) {
    throw new UnknownKubernetesClusterError(wanted, typeof own === 'string' ? [own] : []);
  }
  return connection;
}
