import type { FakeNode, FakePod } from './cluster.js';

/** The JSON the real API server would return for these objects (only the fields that matter). */
export function nodeJson(node: FakeNode) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.name,
      uid: node.uid,
      ...(Object.keys(node.annotations).length > 0 ? { annotations: { ...node.annotations } } : {}),
    },
    // The real server omits `unschedulable` when false.
    spec: {
      ...(node.unschedulable ? { unschedulable: true } : {}),
      ...(node.providerID ? { providerID: node.providerID } : {}),
    },
    status: { addresses: node.addresses.map((address) => ({ type: 'InternalIP', address })) },
  };
}

export function podJson(pod: FakePod) {
  const { input } = pod;
  const controller = input.controller === undefined ? 'ReplicaSet' : input.controller;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      uid: pod.uid,
      ...(input.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'mirror-hash' } } : {}),
      ...(controller
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: controller,
                name: `${pod.name}-owner`,
                uid: 'owner',
                controller: true,
              },
            ],
          }
        : {}),
      ...(pod.deletionTimestamp ? { deletionTimestamp: pod.deletionTimestamp } : {}),
    },
    spec: {
      ...(pod.node ? { nodeName: pod.node } : {}),
      containers: [{ name: 'main', image: 'example/app' }],
      volumes: input.emptyDir ? [{ name: 'scratch', emptyDir: {} }] : [],
    },
    status: { phase: input.phase ?? 'Running' },
  };
}

/** A metav1.Status, as the API server sends with errors and with eviction results. */
export function statusJson(
  code: number,
  reason: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    status: code < 400 ? 'Success' : 'Failure',
    code,
    reason,
    message,
    ...extra,
  };
}

/** The 429 a PodDisruptionBudget causes, worded as the real server words it. */
export function disruptionBudgetStatus(pdbName: string) {
  return statusJson(
    429,
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    {
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: `The disruption budget ${pdbName} needs 1 healthy pods and has 1 currently`,
          },
        ],
        retryAfterSeconds: 10,
      },
    },
  );
}
