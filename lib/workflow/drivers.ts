/**
 * The real drivers, connected from named secrets on first use and then reused (module scope in a
 * Lambda keeps the Keystone token and the HTTP keep-alive). A failed connection is not cached, so
 * the next attempt of the step tries again. Each driver is imported when first needed: esbuild
 * keeps such modules unevaluated until then, so a cold start of the lease steps skips the
 * Kubernetes client, the largest part of the bundle.
 */
import type { ConsulOptions } from '../drivers/consul/options.js';
import type { SecretsProvider } from '../drivers/credentials.js';
import type { KubernetesConnection } from '../drivers/kubernetes/connection.js';
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
): DriverDeps {
  return {
    nova: once(async () => {
      const { connectNova } = await import('../drivers/openstack/connect.js');
      return connectNova(secrets, { secretName: names.nova });
    }),
    drainer: once(async () => {
      const { KubernetesNodeDrainer } = await import('../drivers/kubernetes/KubernetesNodeDrainer.js');
      return KubernetesNodeDrainer.connect(
        (await secrets.loadSecret(names.kubernetes)) as KubernetesConnection,
      );
    }),
    maintenance: once(async () => {
      const { ConsulMaintenanceSwitch } = await import('../drivers/consul/ConsulMaintenanceSwitch.js');
      return ConsulMaintenanceSwitch.create((await secrets.loadSecret(names.consul)) as ConsulOptions);
    }),
  };
}

function once<T>(connect: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= connect().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
