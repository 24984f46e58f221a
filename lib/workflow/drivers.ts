/**
 * The real drivers, connected from named secrets on first use and then reused (module scope in a
 * Lambda keeps the Keystone token and the HTTP keep-alive) until the secret is rotated. A failed
 * connection is not cached, so the next attempt of the step tries again. Each driver is imported when first needed: esbuild
 * keeps such modules unevaluated until then, so a cold start of the lease steps skips the
 * Kubernetes client, the largest part of the bundle.
 */
import type { ConsulOptions } from '../drivers/consul/options.js';
import type { Secret, SecretsProvider } from '../drivers/credentials.js';
import type { KubernetesConnection } from '../drivers/kubernetes/connection.js';
import { type RotationOptions, rotatingDriver } from '../drivers/rotation.js';
import type { StepDeps } from './ports.js';

export interface DriverSecretNames {
  nova: string;
  kubernetes: string;
  consul: string;
}

export const DEFAULT_SECRET_NAMES: DriverSecretNames = {
  nova: 'openstack',
  kubernetes: 'kubernetes',
  consul: 'consul',
};

export type DriverDeps = Pick<StepDeps, 'nova' | 'drainer' | 'maintenance'>;

export function lazyDrivers(
  secrets: SecretsProvider,
  names: DriverSecretNames = DEFAULT_SECRET_NAMES,
  rotation: RotationOptions = {},
): DriverDeps {
  // Each secret is re-read after a max age and on a 401/403, so a rotated credential is picked up
  // without a restart (lib/drivers/rotation.ts).
  const driver = <T extends object>(name: string, connect: (secret: Secret) => Promise<T>) =>
    rotatingDriver(() => secrets.loadSecret(name), connect, rotation);
  return {
    nova: driver(names.nova, async (secret) => {
      const { connectNova } = await import('../drivers/openstack/connect.js');
      return connectNova({ loadSecret: async () => secret }, { secretName: names.nova });
    }),
    drainer: perCluster((cluster) =>
      driver(names.kubernetes, async (secret) => {
        const [{ KubernetesNodeDrainer }, { clusterConnection }] = await Promise.all([
          import('../drivers/kubernetes/KubernetesNodeDrainer.js'),
          import('../drivers/kubernetes/clusters.js'),
        ]);
        return KubernetesNodeDrainer.connect(clusterConnection(secret, cluster) as KubernetesConnection);
      }),
    ),
    maintenance: driver(names.consul, async (secret) => {
      const { ConsulMaintenanceSwitch } = await import('../drivers/consul/ConsulMaintenanceSwitch.js');
      return ConsulMaintenanceSwitch.create(secret as ConsulOptions);
    }),
  };
}

/** One driver getter per cluster name (null: the default cluster), made on first use. */
function perCluster<T>(
  make: (cluster: string | null) => () => Promise<T>,
): (cluster?: string | null) => Promise<T> {
  const getters = new Map<string | null, () => Promise<T>>();
  return (cluster) => {
    const key = cluster ?? null;
    let get = getters.get(key);
    if (!get) {
      get = make(key);
      getters.set(key, get);
    }
    return get();
  };
}
