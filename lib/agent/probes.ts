/** The preflight's calls over the driver connections: each one harmless read, resolving with a note. */
import type { AgentSecrets } from './secrets.js';

/** A token from Keystone with the OpenStack credentials. */
export async function probeKeystone({ provider, names }: AgentSecrets): Promise<string> {
  const [{ parseCloudCredentials }, { cloudFetch }, { KeystoneSession }] = await Promise.all([
    import('../drivers/openstack/cloudConfig.js'),
    import('../drivers/openstack/connect.js'),
    import('../drivers/openstack/keystone.js'),
  ]);
  const source = `secret ${names.nova}`;
  const credentials = parseCloudCredentials(await provider.loadSecret(names.nova), source);
  const session = new KeystoneSession(credentials, { fetch: await cloudFetch(credentials, source) });
  await session.token();
  return `token issued by ${credentials.authUrl}`;
}

/** One read (the node list) per cluster the Kubernetes secret names. */
export async function probeKubernetes({
  provider,
  names,
}: AgentSecrets): Promise<Array<[string, () => Promise<string>]>> {
  const [{ clusterConnection }, { KubernetesNodeDrainer }] = await Promise.all([
    import('../drivers/kubernetes/clusters.js'),
    import('../drivers/kubernetes/KubernetesNodeDrainer.js'),
  ]);
  const secret = await provider.loadSecret(names.kubernetes);
  const clusters = secret.clusters;
  const named = clusters && typeof clusters === 'object' ? Object.keys(clusters) : [null];
  return named.map((cluster) => [
    cluster ?? 'kubernetes',
    async () => {
      const drainer = await KubernetesNodeDrainer.connect(clusterConnection(secret, cluster) as never);
      try {
        return `${(await drainer.nodes()).length} nodes readable`;
      } finally {
        drainer.close();
      }
    },
  ]);
}

/** `/v1/agent/self` of the Consul agent at `address`, with the Consul credentials. */
export async function probeConsul({ provider, names }: AgentSecrets, address: string): Promise<string> {
  const { ConsulMaintenanceSwitch } = await import('../drivers/consul/ConsulMaintenanceSwitch.js');
  const consul = await ConsulMaintenanceSwitch.create((await provider.loadSecret(names.consul)) as never);
  try {
    const self = await consul.agentSelf(address);
    return `agent of node ${self.node} in ${self.datacenter}`;
  } finally {
    consul.close();
  }
}
