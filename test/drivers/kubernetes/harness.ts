/** The real Kubernetes driver wired to the fake API server, both on one manual clock. */
import { KubernetesNodeDrainer } from '../../../lib/drivers/kubernetes/KubernetesNodeDrainer.js';
import { ManualClock } from '../../../lib/model/clock.js';
import type { FakeCluster } from '../../fakes/kubernetes/cluster.js';
import { type FakeKubernetesOptions, FakeKubernetesServer } from '../../fakes/kubernetes/server.js';

export const NODE = 'k8s-web-1';
export const TOKEN = 'test-token';

export interface Harness {
  clock: ManualClock;
  server: FakeKubernetesServer;
  cluster: FakeCluster;
  drainer: KubernetesNodeDrainer;
}

/** Starts a fake cluster holding node NODE and a drainer connected with a bearer token. */
export async function startHarness(
  options: Omit<FakeKubernetesOptions, 'clock' | 'token'> = {},
): Promise<Harness> {
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 12));
  const server = await FakeKubernetesServer.start({ clock, token: TOKEN, ...options });
  server.cluster.addNode(NODE);
  const drainer = await KubernetesNodeDrainer.connect(server.connection(), { clock });
  return { clock, server, cluster: server.cluster, drainer };
}

/** Runs `promise` expecting a rejection and returns the error, so its fields can be asserted. */
export async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Requests the driver sent with this method whose path contains `fragment`. */
export function sent(server: FakeKubernetesServer, method: string, fragment: string) {
  return server.requests.filter((r) => r.method === method && r.path.includes(fragment));
}
